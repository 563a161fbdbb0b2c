import Foundation
import GRDB

/// Reads pages of the change feed inside one read transaction, as `identity` sees the data.
///
/// What the feed carries for a caller: the courses it may see and their lessons, and its own
/// enrollments, progress and profile (what a learner's device keeps offline), each only while
/// its course is visible to the caller.
package struct ChangeFeedReader {
    package let db: Database
    package let userID: String
    package let role: UserRecord.Role
    /// The entities the feed carries, in base-sync order.
    package let entities: [FeedEntity]

    package init(db: Database, identity: Identity, entities: [FeedEntity] = FeedEntity.all) {
        self.init(db: db, userID: identity.userID, role: identity.role, entities: entities)
    }

    package init(db: Database, userID: String, role: UserRecord.Role, entities: [FeedEntity] = FeedEntity.all) {
        self.db = db
        self.userID = userID
        self.role = role
        self.entities = entities
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
        let audience = ChangeAudience(userID: userID, isAdmin: role == .admin, entities: entities)
        let statement = Self.deltaStatement(after: seq, through: end, audience: audience, limit: limit + 1)
        let rows = try Row.fetchAll(db.cachedStatement(sql: statement.sql), arguments: statement.arguments)
        let hasMore = rows.count > limit
        let taken = rows.prefix(limit)
        var keys: [(entity: FeedEntity, id: String, courseID: String?)] = []
        for row in taken {
            guard let entity = FeedEntity.named(row["entity"], in: entities) else { continue }
            keys.append((entity, row["entity_id"], row["course_id"]))
        }
        let current = try currentStates(of: keys)
        let changes = keys.map { key in
            current[Key(key.entity.name, key.id)]
                ?? FeedChange(entity: key.entity.name, id: key.id, courseID: key.courseID, state: nil)
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
        let kinds = entities
        var index = position.flatMap { base in kinds.firstIndex { $0.name == base.entity } } ?? 0
        var after = position?.after ?? ""
        var changes: [FeedChange] = []
        while index < kinds.count {
            let remaining = limit - changes.count
            guard remaining > 0 else {
                return ChangeFeedPage(
                    changes: changes, cursor: mint(snapshot, .init(entity: kinds[index].name, after: after)), hasMore: true,
                    baseContinues: true)
            }
            let batch = try baseRows(kinds[index], after: after, limit: remaining + 1)
            if batch.count > remaining {
                changes += batch.prefix(remaining)
                let last = changes.last?.key.id ?? after
                return ChangeFeedPage(
                    changes: changes, cursor: mint(snapshot, .init(entity: kinds[index].name, after: last)), hasMore: true,
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
        var entity: String
        var id: String
        init(_ entity: String, _ id: String) {
            self.entity = entity
            self.id = id
        }
    }

    /// The current representation of each entity the caller may still see, by entity and id.
    private func currentStates(of keys: [(entity: FeedEntity, id: String, courseID: String?)]) throws -> [Key: FeedChange] {
        var ids: [String: (entity: FeedEntity, ids: [String])] = [:]
        for key in keys { ids[key.entity.name, default: (key.entity, [])].ids.append(key.id) }
        var states: [Key: FeedChange] = [:]
        for (entity, entityIDs) in ids.values {
            for change in try rows(entity, ids: entityIDs) { states[Key(change.entity, change.id)] = change }
        }
        return states
    }

    /// Whether the feed carries the entity of kind `entity` and id `id` to the caller now: the
    /// read its pages make (``FeedExplanation`` says why not).
    package func carries(_ entity: FeedEntity, id: String) throws -> Bool {
        try !rows(entity, ids: [id]).isEmpty
    }

    /// The visible entities of a kind among `ids`.
    private func rows(_ entity: FeedEntity, ids: [String]) throws -> [FeedChange] {
        let marks = databaseQuestionMarks(count: ids.count)
        return try read(entity, where: "IN (\(marks))", arguments: StatementArguments(ids), limit: nil)
    }

    /// The visible entities of a kind whose key sorts after `after`, in key order.
    private func baseRows(_ entity: FeedEntity, after: String, limit: Int) throws -> [FeedChange] {
        try read(entity, where: "> ?", arguments: [after], limit: limit)
    }

    /// The entities of a kind the caller sees whose key matches `keyCondition`, in key order: a
    /// course it may see, a row of a course it may see, and of an owner's rows only its own.
    private func read(
        _ entity: FeedEntity, where keyCondition: String, arguments: StatementArguments, limit: Int?
    ) throws -> [FeedChange] {
        let (visible, visibleArguments) = CourseAccess.visibleSQL(role: role, userID: userID)
        var conditions = ["\(entity.idColumn) \(keyCondition)"]
        var all = arguments
        switch entity.placement {
        case .course:
            conditions += visible
            all += visibleArguments
        case .inCourse(let column):
            let filter = visible.isEmpty ? "" : " WHERE " + visible.joined(separator: " AND ")
            conditions.append("\(column) IN (SELECT id FROM courses\(filter))")
            all += visibleArguments
        case .outsideCourses:
            break
        }
        if let owner = entity.ownerColumn {
            conditions.append("\(owner) = ?")
            all += [userID]
        }
        let limitSQL = limit.map { " LIMIT \($0)" } ?? ""
        let sql = "SELECT * FROM \(entity.table) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(entity.idColumn)\(limitSQL)"
        return try entity.fetch(db, sql, all).map {
            FeedChange(entity: entity.name, id: $0.id, courseID: $0.courseID, state: $0.state)
        }
    }
}
