import Foundation
import GRDB

/// Who may see and change which courses.
///
/// Students see published courses; teachers see published courses and their own drafts; admins
/// see everything in the tenant. Only the owning teacher or an admin changes a course. A course
/// the caller may not see is not found, exactly like one that does not exist.
package enum CourseAccess {
    /// What `identity` sees (``CourseVisibility``): the one place the rule is decided, used by
    /// ``fetchVisible(_:id:identity:)``, by the statements the store writes out and by the keys of
    /// cached list pages.
    package static func visibility(_ identity: Identity) -> CourseVisibility {
        CourseVisibility(role: identity.role, userID: identity.userID)
    }

    /// The visibility rule as SQL conditions on `courses`, with their arguments.
    package static func visibleSQL(_ identity: Identity) -> (conditions: [String], arguments: StatementArguments) {
        visibility(identity).sql
    }

    package static func visibleSQL(role: UserRecord.Role, userID: String) -> (conditions: [String], arguments: StatementArguments) {
        CourseVisibility(role: role, userID: userID).sql
    }

    /// The same rule as disjoint branches whose union is what the caller may see, each branch
    /// one index seek: a teacher's published courses, and their own drafts. Lists run one
    /// `SELECT` per branch joined by `UNION ALL` (the branches never share a row), so their
    /// order comes from the indexes, not from a sort.
    package static func visibleBranches(role: UserRecord.Role, userID: String) -> [(conditions: [String], arguments: StatementArguments)] {
        CourseVisibility(role: role, userID: userID).branches
    }

    /// The course, if `identity` may see it.
    ///
    /// Every course-scoped request asks this first, so it runs a statement the connection keeps
    /// prepared (one per role): generating and preparing it again cost each request about
    /// 400,000 instructions.
    package static func fetchVisible(_ db: Database, id: String, identity: Identity) throws -> CourseRecord {
        let (conditions, arguments) = visibleSQL(identity)
        let statement = try db.cachedStatement(
            sql: "SELECT * FROM courses WHERE " + (["id = ?"] + conditions).joined(separator: " AND "))
        guard let course = try CourseRecord.fetchOne(statement, arguments: [id] + arguments) else {
            throw StoreError.notFound(.course)
        }
        return course
    }

    package static func canEdit(_ course: CourseRecord, identity: Identity) -> Bool {
        identity.role == .admin || (identity.role == .teacher && course.teacherId == identity.userID)
    }

    /// The course, if `identity` may change it: not found when invisible, forbidden when visible but not theirs.
    package static func fetchEditable(_ db: Database, id: String, identity: Identity) throws -> CourseRecord {
        let course = try fetchVisible(db, id: id, identity: identity)
        guard canEdit(course, identity: identity) else {
            throw StoreError.forbidden(.editCourse)
        }
        return course
    }

    /// Marks the course changed (its lesson count is part of its representation).
    package static func touch(_ db: Database, courseID: String, now: Date) throws {
        try db.execute(
            sql: "UPDATE courses SET version = version + 1, updated_at = ? WHERE id = ?", arguments: [now, courseID])
    }
}
