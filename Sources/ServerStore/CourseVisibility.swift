import GRDB

/// Which courses a caller sees: the visibility rule, decided once, in one switch.
///
/// Students see published courses; teachers see published courses and their own drafts; admins
/// see everything in the tenant. Callers of one class see exactly the same courses, so the class is
/// also what a cached list page is kept under: the key and the SQL come from the same value, and
/// cannot drift apart.
package enum CourseVisibility: Hashable, Sendable, CustomStringConvertible {
    /// Every course of the tenant (admins).
    case everything
    /// The published courses (students).
    case published
    /// The published courses and one teacher's drafts.
    case publishedAndDraftsOf(teacherID: String)

    package init(role: UserRecord.Role, userID: String) {
        switch role {
        case .admin: self = .everything
        case .teacher: self = .publishedAndDraftsOf(teacherID: userID)
        case .student: self = .published
        }
    }

    /// The rule as SQL conditions on `courses`, with their arguments.
    package var sql: (conditions: [String], arguments: StatementArguments) {
        switch self {
        case .everything: ([], [])
        case .published: (["published = 1"], [])
        case .publishedAndDraftsOf(let teacherID): (["(published = 1 OR teacher_id = ?)"], [teacherID])
        }
    }

    /// The same rule as disjoint branches whose union is what the caller may see, each branch
    /// one index seek: the published courses, and a teacher's own drafts.
    package var branches: [(conditions: [String], arguments: StatementArguments)] {
        switch self {
        case .everything: [([], [])]
        case .published: [(["published = 1"], [])]
        case .publishedAndDraftsOf(let teacherID): [(["published = 1"], []), (["teacher_id = ?", "published = 0"], [teacherID])]
        }
    }

    /// A cache key's part: `all`, `published`, or `published+drafts:<teacher id>`.
    package var description: String {
        switch self {
        case .everything: "all"
        case .published: "published"
        case .publishedAndDraftsOf(let teacherID): "published+drafts:\(teacherID)"
        }
    }
}
