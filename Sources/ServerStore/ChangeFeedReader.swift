import Foundation
import GRDB

/// Reads pages of the change feed inside one read transaction, as `identity` sees the data.
///
/// What the feed carries for a caller: the courses it may see and their lessons, and its own
/// enrollments, progress and profile (what a learner's device keeps offline), each only while
/// its course is visible to the caller.
package struct ChangeFeedReader {
    package let db: Database
    package let identity: Identity

    package init(db: Database, identity: Identity) {
        self.db = db
        self.identity = identity
    }

    package typealias Mint = (_ seq: Int64, _ base: ChangeCursor.BasePosition?) -> ChangeCursor

    /// The most sequence numbers one delta page reads from the log. A page reads the changes in
    /// `(seq, seq + window]` (and at most its limit of entities among them), so its cost follows
    /// the page, never the length of the log behind an old cursor; a page that reached the end
    /// of its window with more log after it answers `has_more` with a cursor at the window's end,
    /// possibly with no change the caller may see.
    package static let window: Int64 = 2_000

    /// The entities changed after `seq`, each collapsed to its current state, oldest change first.
    package func deltaPage(after seq: Int64, head: Int64, limit: Int, mint: Mint) throws -> ChangeFeedPage {
        guard seq <= head else { throw StoreError.cursorExpired(.retention) }
        let end = min(head, seq + Self.window)
        let statement = Self.deltaStatement(after: seq, through: end, audience: ChangeAudience(identity), limit: limit + 1)
        let rows = try Row.fetchAll(db.cachedStatement(sql: statement.sql), arguments: statement.arguments)
        let hasMore = rows.count > limit
        let taken = rows.prefix(limit)
        var keys: [(entity: ChangeLog.Entity, id: String, courseID: String?)] = []
        for row in taken {
            guard let entity = ChangeLog.Entity(rawValue: row["entity"]) else { continue }
            keys.append((entity, row["entity_id"], row["course_id"]))
        }
        let current = try currentStates(of: keys)
        let changes = keys.map { key in
            current[Key(key.entity, key.id)] ?? .deleted(key.entity, id: key.id, courseID: key.courseID)
        }
        let next: Int64 = hasMore ? (taken.last?["last"] ?? seq) : end
        return ChangeFeedPage(changes: changes, cursor: mint(next, nil), hasMore: hasMore || end < head)
    }

    /// The entities changed in `(seq, end]` that `audience` hears of, one row per entity with the
    /// columns of its latest change (SQLite's bare columns of `MAX`), oldest first: a range seek
    /// on the primary key, never a walk of the whole log.
    package static func deltaStatement(
        after seq: Int64, through end: Int64, audience: ChangeAudience, limit: Int
    ) -> (sql: String, arguments: StatementArguments) {
        let condition = audience.sql
        return (
            """
            SELECT entity, entity_id, course_id, MAX(seq) AS last FROM changes
            WHERE seq > ? AND seq <= ? AND \(condition.condition)
            GROUP BY entity, entity_id, user_id ORDER BY last LIMIT ?
            """,
            [seq, end] + condition.arguments + [limit]
        )
    }

    /// Everything the caller sees, entity kind by kind in id order, from `position`; the last page's
    /// cursor continues as a delta from `snapshot`, the sequence the base sync started at.
    package func basePage(
        from position: ChangeCursor.BasePosition?, snapshot: Int64, head: Int64, limit: Int, mint: Mint
    ) throws -> ChangeFeedPage {
        let kinds = ChangeLog.Entity.allCases
        var index = position.flatMap { kinds.firstIndex(of: $0.entity) } ?? 0
        var after = position?.after ?? ""
        var changes: [FeedChange] = []
        while index < kinds.count {
            let remaining = limit - changes.count
            guard remaining > 0 else {
                return ChangeFeedPage(
                    changes: changes, cursor: mint(snapshot, .init(entity: kinds[index], after: after)), hasMore: true,
                    baseContinues: true)
            }
            let batch = try baseRows(kinds[index], after: after, limit: remaining + 1)
            if batch.count > remaining {
                changes += batch.prefix(remaining)
                let last = changes.last?.key.id ?? after
                return ChangeFeedPage(
                    changes: changes, cursor: mint(snapshot, .init(entity: kinds[index], after: last)), hasMore: true,
                    baseContinues: true)
            }
            changes += batch
            index += 1
            after = ""
        }
        return ChangeFeedPage(changes: changes, cursor: mint(snapshot, nil), hasMore: head > snapshot)
    }

    // MARK: Reading current state

    private struct Key: Hashable {
        package var entity: ChangeLog.Entity
        package var id: String
        package init(_ entity: ChangeLog.Entity, _ id: String) {
            self.entity = entity
            self.id = id
        }
    }

    /// The courses the caller sees, as a subquery of their ids, with its arguments.
    private var visibleCourseIDs: (sql: String, arguments: StatementArguments) {
        let (conditions, arguments) = CourseAccess.visibleSQL(identity)
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT id FROM courses\(filter)", arguments)
    }

    /// The current representation of each entity the caller may still see, by entity and id.
    private func currentStates(of keys: [(entity: ChangeLog.Entity, id: String, courseID: String?)]) throws -> [Key: FeedChange] {
        var ids: [ChangeLog.Entity: [String]] = [:]
        for key in keys { ids[key.entity, default: []].append(key.id) }
        var states: [Key: FeedChange] = [:]
        for (entity, entityIDs) in ids {
            for change in try rows(entity, ids: entityIDs) { states[Key(change.key.entity, change.key.id)] = change }
        }
        return states
    }

    /// The visible entities of a kind among `ids`.
    private func rows(_ entity: ChangeLog.Entity, ids: [String]) throws -> [FeedChange] {
        let marks = databaseQuestionMarks(count: ids.count)
        return try read(entity, where: "IN (\(marks))", arguments: StatementArguments(ids), limit: nil)
    }

    /// The visible entities of a kind whose key sorts after `after`, in key order.
    private func baseRows(_ entity: ChangeLog.Entity, after: String, limit: Int) throws -> [FeedChange] {
        try read(entity, where: "> ?", arguments: [after], limit: limit)
    }

    /// The visible entities of a kind whose key matches `keyCondition`, in key order.
    private func read(
        _ entity: ChangeLog.Entity, where keyCondition: String, arguments: StatementArguments, limit: Int?
    ) throws -> [FeedChange] {
        let visible = visibleCourseIDs
        let limitSQL = limit.map { " LIMIT \($0)" } ?? ""
        switch entity {
        case .course:
            let (conditions, visibleArguments) = CourseAccess.visibleSQL(identity)
            let filter = (conditions + ["id \(keyCondition)"]).joined(separator: " AND ")
            let courses = try CourseRecord.fetchAll(
                db, sql: "SELECT * FROM courses WHERE \(filter) ORDER BY id\(limitSQL)", arguments: visibleArguments + arguments)
            let counts = try TenantStore.lessonCounts(db, courseIDs: courses.map(\.id))
            return courses.map { .course(CourseWithLessonCount($0, lessonCount: counts[$0.id] ?? 0)) }
        case .lesson:
            return try LessonRecord.fetchAll(
                db,
                sql: "SELECT * FROM lessons WHERE id \(keyCondition) AND course_id IN (\(visible.sql)) ORDER BY id\(limitSQL)",
                arguments: arguments + visible.arguments
            ).map { .lesson($0) }
        case .enrollment:
            return try ownRows(EnrollmentRecord.self, of: "enrollments", key: "course_id", keyCondition, arguments, limitSQL)
                .map { .enrollment($0) }
        case .progress:
            return try ownRows(ProgressRecord.self, of: "progress", key: "lesson_id", keyCondition, arguments, limitSQL)
                .map { .progress($0) }
        case .profile:
            return try UserRecord.fetchAll(
                db, sql: "SELECT * FROM users WHERE id = ? AND id \(keyCondition)", arguments: [identity.userID] + arguments
            ).map { .profile($0) }
        }
    }

    /// The caller's own rows of `table` in courses it may see, whose `key` matches `keyCondition`,
    /// in key order.
    private func ownRows<Record: FetchableRecord>(
        _ type: Record.Type, of table: String, key: String, _ keyCondition: String, _ arguments: StatementArguments,
        _ limitSQL: String
    ) throws -> [Record] {
        let visible = visibleCourseIDs
        return try Record.fetchAll(
            db,
            sql: """
                SELECT * FROM \(table) WHERE user_id = ? AND \(key) \(keyCondition) AND course_id IN (\(visible.sql))
                ORDER BY \(key)\(limitSQL)
                """,
            arguments: [identity.userID] + arguments + visible.arguments)
    }
}
