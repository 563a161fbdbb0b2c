import Foundation
import GRDB

/// The reset's transaction: a base sync of a new timeline replaces the cache, and the outbox's
/// writes made on the old one are reconciled with it, all in one step.
extension OfflineStore {
    /// What ``applyReset(_:after:cursor:finished:at:resolve:)`` did.
    struct ResetOutcome: Sendable, Equatable {
        /// Cached entities written or removed.
        var applied = 0
        /// The entities whose cached state the reset changed (created, changed or removed): what
        /// ``SyncEngine/remoteChanges()`` tells.
        var changed: [RemoteChange] = []
        /// Queued writes whose base was gone, rebased by their conflict rule.
        var rebased = 0
        /// Queued writes whose base was gone, parked as conflicts.
        var parked = 0
    }

    /// Replaces every cached entity with a base sync's `changes` and stores `cursor`, in one
    /// transaction, keeping the outbox, dead letters and conflicts, and marking every downloaded
    /// file for a check of its media (``DownloadRecord/needsCheck``).
    ///
    /// Each pending write based on a version (queued, or in flight and not yet answered) is held
    /// against the new state of its resource: when the state it was based on is still the
    /// server's (the same representation), it is rebased on the new version number; otherwise its
    /// base is gone, and `resolve` (the resource's conflict rule) decides: a resend becomes the
    /// write's new body and base, anything else parks it as a conflict the user sees. It is never
    /// sent on top of a state its user never saw, and never dropped.
    ///
    /// - Returns: what changed; `nil` when another pull overtook this one (the stored cursor is no
    ///   longer `expected`): then nothing changed.
    func applyReset(
        _ changes: [PulledChange], after expected: String?, cursor: String, finished: Bool, at now: Date,
        resolve: @Sendable (_ item: OutboxItem, _ serverVersion: Int?, _ serverJson: Data?) -> ConflictResolver.Resolution
    ) async throws -> ResetOutcome? {
        try await writer.write { db in
            let stored = try String.fetchOne(
                db.cachedStatement(sql: "SELECT value FROM settings WHERE key = ?"), arguments: [Self.syncCursorKey])
            guard stored == expected else { return nil }
            let kinds = SyncedResources.types.map(\.rawValue)
            let before = try CachedEntity.filter(kinds.contains(CachedEntity.Columns.kind)).fetchAll(db)
            try Self.dropSyncedEntities(db)
            var outcome = ResetOutcome()
            outcome.applied = try Self.write(changes, db, at: now, rebasing: false)
            outcome.changed = try Self.differences(db, from: before, pulled: changes)
            try Self.reconcilePendingWrites(db, at: now, resolve: resolve, into: &outcome)
            // A lesson's media may have been replaced too: each downloaded file is checked against
            // the server before it is served as current again (``Downloads``).
            try db.execute(sql: "UPDATE downloads SET needs_check = 1 WHERE complete")
            try Self.storeCursor(db, cursor, finished: finished, at: now)
            return outcome
        }
    }

    /// The entities whose cached representation differs from `before`: each pulled one whose JSON
    /// changed or is new, and each one that was cached and is no longer.
    private static func differences(_ db: Database, from before: [CachedEntity], pulled: [PulledChange]) throws -> [RemoteChange] {
        var old: [String: CachedEntity] = [:]
        for entity in before { old["\(entity.kind.rawValue)/\(entity.id)"] = entity }
        var changed: [RemoteChange] = []
        var kept: Set<String> = []
        for change in pulled {
            guard let kind = change.kind, case .upsert(let entity) = change.action, let announced = change.announced else { continue }
            let key = "\(kind.rawValue)/\(entity.id)"
            kept.insert(key)
            if let previous = old[key], sameJSON(previous.json, entity.json) { continue }
            changed.append(announced)
        }
        for entity in before where !kept.contains("\(entity.kind.rawValue)/\(entity.id)") {
            changed.append(RemoteChange(type: entity.kind.rawValue, id: entity.id, courseID: entity.parentId, operation: .delete))
        }
        return changed
    }

    /// Holds every pending write based on a version against its resource's new cached state.
    private static func reconcilePendingWrites(
        _ db: Database, at now: Date,
        resolve: (_ item: OutboxItem, _ serverVersion: Int?, _ serverJson: Data?) -> ConflictResolver.Resolution,
        into outcome: inout ResetOutcome
    ) throws {
        let writes = try QueuedWrite.pending.filter(sql: "base_version IS NOT NULL").fetchAll(db)
        for write in writes {
            guard let id = write.id else { continue }
            let item = try write.item()
            let server = try LocalCache.base(db, of: item.resource)
            if let server, let version = server.version, sameJSON(server.json, write.baseJson) {
                // The state it was made on is still the server's: only its number may differ.
                try db.execute(
                    sql: "UPDATE queued_writes SET base_version = ?, base_json = ? WHERE id = ?",
                    arguments: [version, server.json, id])
                continue
            }
            let resolution: ConflictResolver.Resolution =
                server?.version == nil ? .park : resolve(item, server?.version, server?.json)
            if case .resend(let body, let version) = resolution {
                try db.execute(
                    sql: "UPDATE queued_writes SET body = ?, base_version = ?, base_json = ?, next_attempt_at = NULL WHERE id = ?",
                    arguments: [body, version, server?.json, id])
                outcome.rebased += 1
            } else {
                // Accepting the server's state would drop the user's write without a word: after a
                // reset the user decides.
                try db.execute(
                    sql: """
                        UPDATE queued_writes SET state = 'conflict', server_version = ?, server_json = ?, detected_at = ?
                        WHERE id = ?
                        """,
                    arguments: [server?.version, server?.json, now, id])
                outcome.parked += 1
            }
        }
    }

    /// Whether two JSON documents hold the same value, whatever their key order or spacing.
    static func sameJSON(_ left: Data?, _ right: Data?) -> Bool {
        guard let left, let right else { return left == right }
        if left == right { return true }
        func canonical(_ data: Data) -> Data? {
            guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
            return try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed, .sortedKeys])
        }
        guard let a = canonical(left), let b = canonical(right) else { return false }
        return a == b
    }
}
