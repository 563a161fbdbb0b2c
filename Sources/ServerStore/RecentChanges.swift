import Foundation
import GRDB

/// The newest entries of a tenant's change log, as the dev console's Change feed panel shows them.
package struct RecentChanges: Sendable {
    /// One logged change: which row changed and how; ``exists`` says whether the row is there now.
    package struct Entry: Sendable, Equatable {
        package var seq: Int64
        package var entity: String
        package var entityID: String
        package var courseID: String?
        /// The owner of a user's own row (enrollment, progress, profile).
        package var userID: String?
        /// The teacher of the draft course the change was made in, if it was.
        package var draftOf: String?
        package var changedAt: Date
        /// `insert`, `update`, `delete`, or `visibility` (its course's visibility changed);
        /// `nil` for an entry logged before the log kept operations.
        package var operation: String?
        /// Whether the row exists now (for a user's own row: that user's).
        package var exists: Bool
    }

    package var timeline: ChangeTimeline
    /// The tenant's newest sequence.
    package var head: Int64
    /// The newest sequence pruned from the log (cursors before it are expired).
    package var prunedThrough: Int64
    /// Newest first.
    package var entries: [Entry]

    /// The page's statement (arguments: `before`, `limit`): a range seek backwards on the
    /// primary key, whatever the log's length (`FeedInspectionTests.pageSeeksTheKey`).
    package static let sql = """
        SELECT seq, entity, entity_id, course_id, user_id, draft_of, changed_at, op FROM changes
        WHERE seq < ? ORDER BY seq DESC LIMIT ?
        """
}

extension TenantStore {
    /// The change log's newest `limit` entries before sequence `before` (all when `nil`), newest
    /// first, read in one transaction.
    package func recentChanges(before: Int64?, limit: Int) async throws -> RecentChanges {
        try await database.read { db in
            let rows = try Row.fetchAll(db, sql: RecentChanges.sql, arguments: [before ?? Int64.max, limit])
            var entries: [RecentChanges.Entry] = []
            for row in rows {
                let name: String = row["entity"]
                let id: String = row["entity_id"]
                let owner: String? = row["user_id"]
                var exists = false
                if let entity = FeedEntity.named(name) {
                    var sql = "SELECT EXISTS (SELECT 1 FROM \(entity.table) WHERE \(entity.idColumn) = ?"
                    var arguments: StatementArguments = [id]
                    if let column = entity.ownerColumn {
                        sql += " AND \(column) = ?"
                        arguments += [owner]
                    }
                    exists = try Bool.fetchOne(db, sql: sql + ")", arguments: arguments) == true
                }
                entries.append(RecentChanges.Entry(
                    seq: row["seq"], entity: name, entityID: id, courseID: row["course_id"], userID: owner,
                    draftOf: row["draft_of"], changedAt: Date(timeIntervalSince1970: row["changed_at"]), operation: row["op"],
                    exists: exists))
            }
            return RecentChanges(
                timeline: try ChangeTimeline.current(db),
                head: try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'") ?? 0,
                prunedThrough: try Int64.fetchOne(db, sql: "SELECT pruned_through FROM change_log") ?? 0,
                entries: entries)
        }
    }

    /// How many entries of the change log `audience` hears of after sequence `seq` of `timeline`:
    /// how far behind a device standing there is; `nil` when the tenant is on another timeline
    /// now (the position is of a history that no longer exists). One read.
    package func changesHeard(by audience: ChangeAudience, after seq: Int64, of timeline: String) async throws -> Int? {
        try await database.read { db in
            guard try ChangeTimeline.current(db).id == timeline else { return nil }
            let condition = audience.sql
            return try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM changes WHERE seq > ? AND \(condition.condition)", arguments: [seq] + condition.arguments)
        }
    }
}
