import Foundation
import GRDB

extension OfflineStore {
    /// Moves an outbox item to the dead letters (`letter` carries its id), in one transaction —
    /// unless `prerequisite` names a resource with a creation still queued: then the item stays
    /// queued, to be sent after it (see ``WriteDependency``). The check and the move are one step.
    ///
    /// - Returns: `true` when the item became a dead letter, `false` when it waits for its prerequisite.
    func deadLetter(_ letter: DeadLetter, unlessCreationQueuedFor prerequisite: String?) async throws -> Bool {
        try await writer.write { db -> Bool in
            if let prerequisite {
                let queued = try OutboxItem
                    .filter(OutboxItem.Columns.resource == prerequisite && Column("operation") == OutboxItem.Operation.create.rawValue)
                    .fetchCount(db)
                if queued > 0 {
                    try db.execute(sql: "UPDATE outbox SET next_attempt_at = NULL WHERE id = ?", arguments: [letter.id])
                    return false
                }
            }
            try letter.insert(db)
            _ = try OutboxItem.deleteOne(db, key: letter.id)
            return true
        }
    }

    /// Moves dead letter `id` back into the outbox at its old place (its id: the outbox's ids are
    /// never reused), with its key, counted as attempted so no later write is merged into it, and
    /// with `now` as its creation (a new 24 hours before it is stale). One transaction.
    func requeueDeadLetter(id: Int64, at now: Date) async throws {
        try await writer.write { db in
            guard let letter = try DeadLetter.fetchOne(db, key: id) else { return }
            try letter.delete(db)
            try Self.requeue(
                OutboxItem(
                    id: letter.id, resource: letter.resource, operation: letter.operation, method: letter.method,
                    path: letter.path, body: letter.body, baseVersion: letter.baseVersion, baseJson: letter.baseJson,
                    idempotencyKey: letter.idempotencyKey, createdAt: now, attempts: 1, nextAttemptAt: nil, lastError: nil),
                db)
        }
    }

    /// Settles parked conflict `id` in one transaction: the server's state is stored (keep the
    /// server's), or the write goes back to its old place on top of the server's version (keep
    /// mine, custom), counted as attempted so no later write is merged into it.
    func settleConflict(id: Int64, choice: ConflictChoice, at now: Date) async throws {
        try await writer.write { db in
            guard let conflict = try SyncConflict.fetchOne(db, key: id) else { return }
            try conflict.delete(db)
            let body: Data?
            switch choice {
            case .keepServer:
                try LocalCache.apply(db, resource: conflict.resource, operation: .update, json: conflict.serverJson, at: now)
                return
            case .keepMine: body = conflict.body
            case .custom(let custom): body = custom
            }
            try Self.requeue(
                OutboxItem(
                    id: conflict.id, resource: conflict.resource, operation: conflict.operation, method: conflict.method,
                    path: conflict.path, body: body, baseVersion: conflict.serverVersion, baseJson: conflict.serverJson,
                    idempotencyKey: conflict.idempotencyKey, createdAt: now, attempts: 1, nextAttemptAt: nil, lastError: nil),
                db)
        }
    }

    /// Inserts `item` under its own id when that id is free (it always is: an item leaves the
    /// outbox before it becomes a dead letter or a conflict), else at the end.
    private static func requeue(_ item: OutboxItem, _ db: Database) throws {
        var item = item
        if let id = item.id, try OutboxItem.exists(db, key: id) { item.id = nil }
        try item.insert(db)
    }

    /// The `settings` key of the drain lease: `<owner> <expiry, seconds since 1970>`.
    private static let drainLeaseKey = "sync.drain_lease"

    /// Takes or renews the drain lease for `owner` until `expiry`, unless another owner holds one
    /// that has not expired: one transaction, and SQLite serialises write transactions across
    /// processes, so two drainers (an app and its extension, two `edugo` commands) never both hold it.
    ///
    /// - Returns: whether `owner` holds the lease now.
    func acquireDrainLease(owner: String, now: Date, until expiry: Date) async throws -> Bool {
        try await writer.write { db -> Bool in
            if let holder = try Self.drainLease(db), holder.owner != owner, holder.expiry > now { return false }
            try db.execute(
                sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                arguments: [Self.drainLeaseKey, "\(owner) \(expiry.timeIntervalSince1970)"])
            return true
        }
    }

    /// Gives the drain lease up, if `owner` holds it.
    ///
    /// Synchronous on purpose: a drain ends this way when its task was cancelled too (sign-out,
    /// another user's sign-in), and an async database access would refuse to run then, leaving
    /// the store locked for the lease's remaining time.
    func releaseDrainLease(owner: String) throws {
        try writer.write { db in
            guard let holder = try Self.drainLease(db), holder.owner == owner else { return }
            try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [Self.drainLeaseKey])
        }
    }

    private static func drainLease(_ db: Database) throws -> (owner: String, expiry: Date)? {
        guard let value = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [drainLeaseKey]) else {
            return nil
        }
        let parts = value.split(separator: " ")
        guard parts.count == 2, let seconds = Double(parts[1]) else { return nil }
        return (String(parts[0]), Date(timeIntervalSince1970: seconds))
    }

    /// Settles an item the server accepted, in one transaction: its answer replaces the cached
    /// state, the item leaves the outbox, and the resource's later items are rebased on the version
    /// it produced (they were made on top of it, and would otherwise conflict with their own past).
    func settleSent(_ item: OutboxItem, answer: Data, at now: Date) async throws {
        try await writer.write { db in try Self.settleSent(db, item, answer: answer, at: now) }
    }

    /// ``settleSent(_:answer:at:)`` synchronously, for an answer that arrived after its drain was
    /// cancelled (an async database access refuses to run in a cancelled task).
    func settleSentNow(_ item: OutboxItem, answer: Data, at now: Date) throws {
        try writer.write { db in try Self.settleSent(db, item, answer: answer, at: now) }
    }

    private static func settleSent(_ db: Database, _ item: OutboxItem, answer: Data, at now: Date) throws {
        try LocalCache.apply(db, resource: item.resource, operation: item.operation, json: answer, at: now)
        _ = try OutboxItem.deleteOne(db, key: item.id)
        if let version = (JSONObject.decode(answer)?["version"] as? NSNumber)?.intValue {
            try db.execute(
                sql: "UPDATE outbox SET base_version = ?, base_json = ? WHERE resource = ? AND id > ?",
                arguments: [version, answer, item.resource, item.id])
        }
    }

    /// The user's work not yet on the server, counted in one read: queued writes, dead letters
    /// and parked conflicts.
    func unsyncedWork() async throws -> (pending: Int, deadLetters: Int, conflicts: Int) {
        try await writer.read { db in
            (try OutboxItem.fetchCount(db), try DeadLetter.fetchCount(db), try SyncConflict.fetchCount(db))
        }
    }

    /// How many writes wait in the outbox, read synchronously: a drain that was cancelled still
    /// reports what it left (an async database access refuses to run in a cancelled task).
    func pendingCountNow() throws -> Int {
        try writer.read { db in try OutboxItem.fetchCount(db) }
    }
}
