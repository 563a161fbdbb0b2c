import Foundation
import GRDB

/// The outbox's transactions: queueing a write and settling an attempt. Each is one transaction
/// that leaves the outbox, the dead letters, the conflicts and the cached state consistent.
extension OfflineStore {
    /// How much of the user's work is not on the server yet, and when a sync last succeeded, as
    /// the sync status shows them.
    struct OutboxCounts: Sendable, Equatable {
        var pending: Int
        var oldestPendingAt: Date?
        var deadLetters: Int
        var conflicts: Int
        /// ``AppPreferences/lastSyncDate``: the one record of the last successful sync.
        var lastSyncAt: Date? = nil
    }

    /// Queues `write` under a new `key`, coalescing with the resource's last item that was never
    /// sent (see ``Outbox``).
    ///
    /// - Returns: the item that now carries the write, or `nil` when it cancelled an unsent creation.
    func enqueue(_ write: PendingWrite, key: String, at now: Date) async throws -> OutboxItem? {
        try await writer.write { db in try Self.enqueue(db, write, key: key, at: now) }
    }

    /// Queues a repository's `write`, based on the resource's cached server state, and counts the
    /// unsynced work: one transaction, so no refresh can slip between the base and the write.
    func record(_ write: PendingWrite, key: String, at now: Date) async throws -> OutboxCounts {
        try await writer.write { db in
            var write = write
            if let server = try LocalCache.base(db, of: write.resource) {
                write.baseVersion = server.version
                write.baseJson = server.json
            }
            _ = try Self.enqueue(db, write, key: key, at: now)
            return try Self.counts(db)
        }
    }

    private static func enqueue(_ db: Database, _ write: PendingWrite, key: String, at now: Date) throws -> OutboxItem? {
        let resource = write.resource.description
        // Cached statements: enqueueing is on the path of every optimistic write.
        let lastStatement = try db.cachedStatement(sql: "SELECT * FROM outbox WHERE resource = ? ORDER BY id DESC LIMIT 1")
        if var last = try OutboxRecord.fetchOne(lastStatement, arguments: [resource]), last.attempts == 0 {
            switch (last.operation, write.operation) {
            case (.create, .update), (.update, .update):
                last.body = JSONObject.merge(last.body, write.body)
                try db.cachedStatement(sql: "UPDATE outbox SET body = ? WHERE id = ?").execute(arguments: [last.body, last.id])
                return try last.value()
            case (.create, .delete):
                try db.cachedStatement(sql: "DELETE FROM outbox WHERE id = ?").execute(arguments: [last.id])
                return nil
            case (.update, .delete):
                last.operation = .delete
                last.method = write.method.rawValue
                last.path = write.endpoint.encodedPath
                last.body = nil
                try last.update(db)
                return try last.value()
            default:
                break
            }
        }
        let item = OutboxRecord(
            id: nil, resource: resource, operation: write.operation, method: write.method.rawValue,
            path: write.endpoint.encodedPath, body: write.body, baseVersion: write.baseVersion, baseJson: write.baseJson,
            idempotencyKey: key, createdAt: now, attempts: 0, nextAttemptAt: nil, lastError: nil)
        try db.cachedStatement(sql: """
            INSERT INTO outbox (resource, operation, method, path, body, base_version, base_json, idempotency_key, created_at, attempts)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
            """).execute(arguments: [
                item.resource, item.operation.rawValue, item.method, item.path, item.body, item.baseVersion, item.baseJson,
                item.idempotencyKey, item.createdAt,
            ])
        return OutboxItem(
            id: db.lastInsertedRowID, resource: write.resource, operation: item.operation, method: item.method,
            path: item.path, body: item.body, baseVersion: item.baseVersion, baseJson: item.baseJson, idempotencyKey: key,
            createdAt: now, attempts: 0, nextAttemptAt: nil, lastError: nil)
    }

    /// What a claim found.
    enum Claim: Sendable, Equatable {
        /// The item, as it was before this attempt was counted.
        case claimed(OutboxItem)
        /// The item left the outbox (a later write cancelled it, or another drain settled it).
        case gone
        /// Another drainer holds the store's drain lease: nothing was claimed.
        case leaseLost
    }

    /// Claims item `id` for an attempt by drainer `owner`, in one transaction that first renews
    /// the owner's drain lease until `expiry` (one drainer per store, checked at every send) and
    /// then counts the attempt. From here on a later write to the resource is appended instead of
    /// merged into what is being sent. Claims and settlements that arrive together share a
    /// transaction (``GroupCommit``), each in a savepoint of its own.
    func claim(_ id: Int64, owner: String, now: Date, leaseUntil expiry: Date) async throws -> Claim {
        try await groupCommit.write { db in
            guard try Self.holdDrainLease(db, owner: owner, now: now, until: expiry) else { return .leaseLost }
            // Cached statements: a drain claims and settles every item.
            guard let current = try OutboxRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM outbox WHERE id = ?"), arguments: [id]) else {
                return .gone
            }
            try db.cachedStatement(sql: "UPDATE outbox SET attempts = attempts + 1 WHERE id = ?").execute(arguments: [id])
            return .claimed(try current.value())
        }
    }

    /// Settles an item the server accepted, in one transaction: its answer replaces the cached
    /// state, the item leaves the outbox, the resource's later items are rebased on the version
    /// it produced (they were made on top of it, and would otherwise conflict with their own past),
    /// and the HTTP cache's answers under `stalePrefixes` (which the write made stale) are dropped.
    ///
    /// Settlements that arrive together share a transaction (``GroupCommit``). A settlement runs
    /// even when the caller's task was cancelled while its request was on the wire: the answer
    /// is kept, so the write is not sent again.
    func settle(_ item: OutboxItem, answer: Data, at now: Date, droppingResponses stalePrefixes: [String]) async throws {
        try await groupCommit.write { db in try Self.settle(db, item, answer: answer, at: now, droppingResponses: stalePrefixes) }
    }

    private static func settle(_ db: Database, _ item: OutboxItem, answer: Data, at now: Date, droppingResponses stalePrefixes: [String]) throws {
        try removeResponses(db, withKeyPrefixes: stalePrefixes)
        let version = try LocalCache.apply(db, resource: item.resource, operation: item.operation, json: answer, at: now)
        try db.cachedStatement(sql: "DELETE FROM outbox WHERE id = ?").execute(arguments: [item.id])
        if let version {
            try db.cachedStatement(sql: "UPDATE outbox SET base_version = ?, base_json = ? WHERE resource = ? AND id > ?")
                .execute(arguments: [version, answer, item.resource.description, item.id])
        }
    }

    /// A conflict settled for the server: its state is cached and the item leaves the outbox.
    func acceptServerState(for item: OutboxItem, serverJson: Data?, at now: Date) async throws {
        try await writer.write { db in
            try LocalCache.apply(db, resource: item.resource, operation: .update, json: serverJson, at: now)
            _ = try OutboxRecord.deleteOne(db, key: item.id)
        }
    }

    /// A conflict settled by sending `body` again on top of the server's `version`, due at once.
    /// The failed attempt stored nothing under the item's key, so the key is kept.
    func rebase(_ item: OutboxItem, body: Data, version: Int, serverJson: Data?) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET body = ?, base_version = ?, base_json = ?, next_attempt_at = NULL WHERE id = ?",
                arguments: [body, version, serverJson, item.id])
        }
    }

    /// Parks `item` as a conflict for the user, with the server's state: one transaction.
    func park(_ item: OutboxItem, serverVersion: Int?, serverJson: Data?, at now: Date) async throws {
        try await writer.write { db in
            try item.conflict(serverVersion: serverVersion, serverJson: serverJson, at: now).insert(db)
            _ = try OutboxRecord.deleteOne(db, key: item.id)
        }
    }

    /// Moves `item` to the dead letters with the server's refusal, in one transaction — unless
    /// `prerequisite` has a creation still queued: then the item stays queued, to be sent after it
    /// (``ResourceKey``'s prerequisite). The check and the move are one step.
    ///
    /// - Returns: `true` when the item became a dead letter, `false` when it waits for its prerequisite.
    func deadLetter(
        _ item: OutboxItem, reason: String, status: Int?, problem: Data?, at now: Date,
        unlessCreationQueuedFor prerequisite: ResourceKey?
    ) async throws -> Bool {
        try await writer.write { db -> Bool in
            if let prerequisite {
                let queued = try OutboxRecord
                    .filter(OutboxRecord.Columns.resource == prerequisite.description
                        && OutboxRecord.Columns.operation == OutboxItem.Operation.create.rawValue)
                    .fetchCount(db)
                if queued > 0 {
                    try db.execute(sql: "UPDATE outbox SET next_attempt_at = NULL WHERE id = ?", arguments: [item.id])
                    return false
                }
            }
            try item.deadLetter(reason: reason, status: status, problem: problem, at: now).insert(db)
            _ = try OutboxRecord.deleteOne(db, key: item.id)
            return true
        }
    }

    /// Makes `item` due again at `date`, keeping `error` as its last error.
    func reschedule(_ item: OutboxItem, at date: Date, error: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET next_attempt_at = ?, last_error = ? WHERE id = ?", arguments: [date, error, item.id])
        }
    }

    static func counts(_ db: Database) throws -> OutboxCounts {
        let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), MIN(created_at) FROM outbox")
        return OutboxCounts(
            pending: row?[0] ?? 0, oldestPendingAt: row?[1], deadLetters: try DeadLetterRecord.fetchCount(db),
            conflicts: try ConflictRecord.fetchCount(db), lastSyncAt: try Self.preferences(db).lastSyncDate)
    }
}
