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
    /// Upserts replace the cached server state (never with an older version: see
    /// ``CachedEntity/store(_:)``); queued writes of the resource that were never sent are rebased
    /// on it (they were made on top of an older state and keep showing over the new one), merged
    /// with it when the resource's strategy in `policy` is ``ConflictStrategy/merge``. Deletions
    /// remove the entity (a course with its lessons and the caller's progress and enrollment in it); queued writes stay and settle by the server's answer. With
    /// `replacing`, every cached entity of a synced kind is dropped first (a base sync).
    ///
    /// The page is applied only if the stored cursor is still `expected`, the one it was pulled
    /// after: a pull that another pull (in this process or another) overtook changes nothing.
    ///
    /// - Returns: how many cached entities were written or removed; `nil` when overtaken.
    func applyPull(
        _ changes: [PulledChange], after expected: String?, cursor: String, replacing: Bool, finished: Bool, at now: Date,
        policy: ConflictPolicy = ConflictPolicy()
    ) async throws -> Int? {
        try await writer.write { db in
            let stored = try String.fetchOne(
                db.cachedStatement(sql: "SELECT value FROM settings WHERE key = ?"), arguments: [Self.syncCursorKey])
            guard stored == expected else { return nil }
            if replacing { try Self.dropSyncedEntities(db) }
            let applied = try Self.write(changes, db, at: now, policy: policy)
            try Self.storeCursor(db, cursor, finished: finished, at: now)
            return applied
        }
    }

    /// Every cached entity of a synced kind leaves the cache (a base sync replaces them), and every
    /// write that already went out is marked outdated: whatever it wrote is in the base now, or
    /// removed since, or comes with a later change of the feed; its answer is not cached.
    static func dropSyncedEntities(_ db: Database) throws {
        let kinds = SyncedResources.types.map(\.rawValue)
        try db.execute(
            sql: "DELETE FROM entities WHERE kind IN (\(databaseQuestionMarks(count: kinds.count)))",
            arguments: StatementArguments(kinds))
        try db.execute(sql: "UPDATE queued_writes SET outdated_by_pull = 1 WHERE attempts > 0")
    }

    /// Writes pulled changes into the cache; with `rebasing`, never-sent queued writes are rebased
    /// on newer versions of their resource, as `policy` says (``rebaseUnsent(_:of:onto:version:strategy:)``;
    /// a reset reconciles them instead: a version number of another timeline says nothing of the
    /// state it names).
    ///
    /// - Returns: how many cached entities were written or removed.
    static func write(
        _ changes: [PulledChange], _ db: Database, at now: Date, rebasing: Bool = true, policy: ConflictPolicy = ConflictPolicy()
    ) throws -> Int {
        var applied = 0
        for change in changes {
            guard let kind = change.kind else { continue }
            switch change.action {
            case .ignore:
                continue
            case .upsert(var entity):
                entity.fetchedAt = now
                try entity.store(db)
                applied += 1
                if rebasing, let resource = change.resource, let version = entity.version {
                    try rebaseUnsent(db, of: resource, onto: entity.json, version: version, strategy: policy.strategy(for: resource))
                }
            case .delete:
                try db.cachedStatement(sql: "DELETE FROM entities WHERE kind = ? AND id = ?")
                    .execute(arguments: [kind.rawValue, change.entityID])
                applied += db.changesCount
                if let resource = change.resource { try markOutdated(db, writesOf: resource.description) }
                if change.cascades {
                    applied += try Self.removeDependents(db, ofCourse: change.entityID)
                    try markOutdated(db, writesInCourse: change.entityID)
                }
            }
        }
        return applied
    }

    /// Marks the writes of `resource` that went out at least once as outdated by this pull: their
    /// answer, replayed or late, tells a state older than the removal the pull brought, and
    /// settling one must not bring the record back (``OfflineStore/settle(_:_:at:)``). A write
    /// never sent is not marked: its answer will be newer than the removal.
    private static func markOutdated(_ db: Database, writesOf resource: String) throws {
        try db.cachedStatement(sql: "UPDATE queued_writes SET outdated_by_pull = 1 WHERE resource = ? AND attempts > 0")
            .execute(arguments: [resource])
    }

    /// ``markOutdated(_:writesOf:)`` for every record removed with course `courseID` (its lessons,
    /// the caller's enrollment and progress in it).
    private static func markOutdated(_ db: Database, writesInCourse courseID: String) throws {
        for descriptor in SyncedResources.all where descriptor.removedWithCourse != .none {
            let own = "\(descriptor.type.rawValue)/\(courseID)"
            try db.cachedStatement(sql: """
                UPDATE queued_writes SET outdated_by_pull = 1
                WHERE (resource = ? OR substr(resource, 1, ?) = ?) AND attempts > 0
                """).execute(arguments: [own, own.count + 1, own + "/"])
        }
    }

    /// Stores the cursor a page left, and, when nothing more waits, when the pull finished.
    static func storeCursor(_ db: Database, _ cursor: String, finished: Bool, at now: Date) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: [Self.syncCursorKey, cursor])
        if finished {
            try db.execute(
                sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                arguments: [Self.lastPullKey, String(now.timeIntervalSince1970)])
        }
    }

    /// Moves the writes of `resource` that were never sent and were made on a state older than
    /// `version` onto `json`, the state a pull brought. With ``ConflictStrategy/merge`` an update's
    /// body is merged with it three ways, as a conflict would be (``ConflictResolver/rebase(rule:base:local:server:)``):
    /// rebased as it was, a watch time smaller than the server's would be sent on the server's
    /// version and replace the larger one another device recorded. Other strategies keep the body
    /// (the learner's latest intent shows over the pulled state).
    private static func rebaseUnsent(_ db: Database, of resource: ResourceKey, onto json: Data, version: Int, strategy: ConflictStrategy) throws {
        let stale = "resource = ? AND state = 'queued' AND attempts = 0 AND (base_version IS NULL OR base_version < ?)"
        if strategy == .merge, let rule = resource.descriptor?.conflicts {
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT id, body, base_json FROM queued_writes WHERE \(stale) AND operation = 'update'"),
                arguments: [resource.description, version])
            for row in rows {
                let body = ConflictResolver.rebase(rule: rule, base: row["base_json"], local: row["body"], server: json)
                try db.cachedStatement(sql: "UPDATE queued_writes SET body = ?, base_version = ?, base_json = ? WHERE id = ?")
                    .execute(arguments: [body, version, json, row["id"] as Int64?])
            }
        }
        try db.cachedStatement(sql: "UPDATE queued_writes SET base_version = ?, base_json = ? WHERE \(stale)")
            .execute(arguments: [version, json, resource.description, version])
    }
}
