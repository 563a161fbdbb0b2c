import Foundation
import GRDB

/// The pull's transactions: a page of the change feed and its cursor, applied together.
extension OfflineStore {
    static let syncCursorKey = "sync.cursor"
    static let lastPullKey = "sync.last_pull_at"

    /// The cursor the last applied page left; `nil` before the first pull (the next is a base sync).
    func syncCursor() async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [Self.syncCursorKey])
        }
    }

    /// When a pull last finished, as this store recorded it.
    func lastPullDate() async throws -> Date? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [Self.lastPullKey])
                .flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Applies pulled changes with the cursor after them, in one transaction: a crash leaves the
    /// store as it was before the page or after it, and the next pull starts from the cursor stored
    /// with the last page applied.
    ///
    /// Upserts replace the cached server state; queued writes of the resource that were never
    /// sent are rebased on it (they were made on top of an older state and keep showing over the
    /// new one). Deletions remove the entity (a course with its lessons and the caller's progress
    /// and enrollment in it); queued writes stay and settle by the server's answer. With
    /// `replacing`, every cached entity of a synced kind is dropped first (a base sync).
    ///
    /// The page is applied only if the stored cursor is still `expected`, the one it was pulled
    /// after: a pull that another pull (in this process or another) overtook changes nothing.
    ///
    /// - Returns: how many cached entities were written or removed; `nil` when overtaken.
    func applyPull(
        _ changes: [PulledChange], after expected: String?, cursor: String, replacing: Bool, finished: Bool, at now: Date
    ) async throws -> Int? {
        try await writer.write { db in
            let stored = try String.fetchOne(
                db.cachedStatement(sql: "SELECT value FROM settings WHERE key = ?"), arguments: [Self.syncCursorKey])
            guard stored == expected else { return nil }
            var applied = 0
            if replacing {
                let kinds = SyncedResources.types.map(\.rawValue)
                try db.execute(
                    sql: "DELETE FROM entities WHERE kind IN (\(databaseQuestionMarks(count: kinds.count)))",
                    arguments: StatementArguments(kinds))
            }
            for change in changes {
                guard let kind = change.kind else { continue }
                switch change.action {
                case .ignore:
                    continue
                case .upsert(var entity):
                    entity.fetchedAt = now
                    try entity.store(db)
                    applied += 1
                    if let resource = change.resource, let version = entity.version {
                        try db.cachedStatement(sql: """
                            UPDATE queued_writes SET base_version = ?, base_json = ?
                            WHERE resource = ? AND state = 'queued' AND attempts = 0 AND (base_version IS NULL OR base_version < ?)
                            """).execute(arguments: [version, entity.json, resource.description, version])
                    }
                case .delete:
                    try db.cachedStatement(sql: "DELETE FROM entities WHERE kind = ? AND id = ?")
                        .execute(arguments: [kind.rawValue, change.entityID])
                    applied += db.changesCount
                    if change.cascades {
                        applied += try Self.removeDependents(db, ofCourse: change.entityID)
                    }
                }
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: [Self.syncCursorKey, cursor])
            if finished {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                    arguments: [Self.lastPullKey, String(now.timeIntervalSince1970)])
            }
            return applied
        }
    }
}
