import Foundation
import GRDB

/// The outbox's transactions: queueing a write, claiming it for an attempt and settling the
/// attempt. Each is one transaction that leaves the queued writes and the cached state consistent.
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
    ///
    /// When the resource merges (its strategy in `policy`), an update's fields that only move one
    /// way are raised (``ConflictRule/raised(_:over:)``) to the furthest of the base and every
    /// write still pending. A device that recorded less than another device, or than its own write
    /// still waiting, never sends the smaller value on the newer version.
    ///
    /// - Throws: ``OfflineSessionError/signedOut`` once the user signed out, or a database error.
    func record(_ write: PendingWrite, key: String, at now: Date, policy: ConflictPolicy = ConflictPolicy()) async throws -> OutboxCounts {
        let rule = policy.strategy(for: write.resource) == .merge ? write.resource.descriptor?.conflicts : nil
        return try await ofSignedInUser { try await writer.write { db in
            var write = write
            let server = try LocalCache.base(db, of: write.resource)
            if let server {
                write.baseVersion = server.version
                write.baseJson = server.json
            }
            if let rule, write.operation == .update {
                let pending = try Data?.fetchAll(
                    db.cachedStatement(sql: "SELECT body FROM queued_writes WHERE resource = ? AND \(QueuedWrite.State.pendingSQL) ORDER BY id"),
                    arguments: [write.resource.description])
                // Raised over each on its own, never over the pending bodies laid over the base:
                // a write sent and unanswered was made on an older state, and laid over a newer
                // pulled base it would take back what the base holds (seen: 1004 sent on the
                // version of another device's 1009, because a pending 904 hid it).
                write.body = ([server?.json] + pending).reduce(write.body) { rule.raised($0, over: $1) }
            }
            _ = try Self.enqueue(db, write, key: key, at: now)
            return try Self.counts(db)
        } }
    }

    private static func enqueue(_ db: Database, _ write: PendingWrite, key: String, at now: Date) throws -> OutboxItem? {
        let resource = write.resource.description
        // Cached statements: enqueueing is on the path of every optimistic write.
        let lastStatement = try db.cachedStatement(
            sql: "SELECT * FROM queued_writes WHERE resource = ? AND \(QueuedWrite.State.pendingSQL) ORDER BY id DESC LIMIT 1")
        if var last = try QueuedWrite.fetchOne(lastStatement, arguments: [resource]), last.attempts == 0 {
            switch (last.operation, write.operation) {
            case (.create, .update), (.update, .update):
                last.body = JSONObject.merge(last.body, write.body)
                try db.cachedStatement(sql: "UPDATE queued_writes SET body = ? WHERE id = ?").execute(arguments: [last.body, last.id])
                return try last.item()
            case (.create, .delete):
                try db.cachedStatement(sql: "DELETE FROM queued_writes WHERE id = ?").execute(arguments: [last.id])
                return nil
            case (.update, .delete):
                last.operation = .delete
                last.method = write.method.rawValue
                last.path = write.endpoint.encodedPath
                last.body = nil
                try last.update(db)
                return try last.item()
            default:
                break
            }
        }
        let method = write.method.rawValue
        let path = write.endpoint.encodedPath
        try db.cachedStatement(sql: """
            INSERT INTO queued_writes (state, resource, operation, method, path, body, base_version, base_json, idempotency_key, created_at, attempts)
            VALUES ('queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
            """).execute(arguments: [
                resource, write.operation.rawValue, method, path, write.body, write.baseVersion, write.baseJson, key, now,
            ])
        return OutboxItem(
            id: db.lastInsertedRowID, resource: write.resource, operation: write.operation, method: method, path: path,
            body: write.body, baseVersion: write.baseVersion, baseJson: write.baseJson, idempotencyKey: key, createdAt: now,
            attempts: 0, nextAttemptAt: nil, lastError: nil)
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
    /// the owner's drain lease until `expiry` (one drainer per store, checked at every send), then
    /// marks the write in flight and counts the attempt. From here on a later write to the resource
    /// is appended instead of merged into what is being sent. A write left in flight by a drain
    /// that ended without settling it is claimed again. Claims and settlements that arrive together
    /// share a transaction (``GroupCommit``), each in a savepoint of its own.
    func claim(_ id: Int64, owner: String, now: Date, leaseUntil expiry: Date) async throws -> Claim {
        try await groupCommit.write { db in
            guard try Self.holdDrainLease(db, owner: owner, now: now, until: expiry) else { return .leaseLost }
            // Cached statements: a drain claims and settles every item.
            let select = try db.cachedStatement(sql: "SELECT * FROM queued_writes WHERE id = ? AND \(QueuedWrite.State.pendingSQL)")
            guard let current = try QueuedWrite.fetchOne(select, arguments: [id]) else { return .gone }
            try db.cachedStatement(sql: "UPDATE queued_writes SET state = 'in_flight', attempts = attempts + 1 WHERE id = ?")
                .execute(arguments: [id])
            return .claimed(try current.item())
        }
    }

    /// Settles the attempt of `item` (claimed by a drain) as `settlement` says, in one transaction
    /// that changes the write's row in place: its state and the fields of that state together, or
    /// nothing when the transaction fails. Only a write still in flight is settled: one that
    /// another drain settled meanwhile stays as that drain left it. A delivery is the exception:
    /// the server holds the write, so its answer is cached and the write leaves the outbox whatever
    /// state it reached.
    ///
    /// A delivery shares a transaction with the claims and settlements that arrive together
    /// (``GroupCommit``), and runs even when the caller's task was cancelled while its request was
    /// on the wire: the answer is kept, so the write is not sent again.
    ///
    /// - Returns: the write's state afterwards, `nil` when it left the outbox.
    @discardableResult
    func settle(_ item: OutboxItem, _ settlement: OutboxSettlement, at now: Date) async throws -> QueuedWrite.State? {
        if case .delivered = settlement {
            return try await groupCommit.write { db in try Self.settle(db, item, settlement, at: now) }
        }
        return try await writer.write { db in try Self.settle(db, item, settlement, at: now) }
    }

    private static func settle(_ db: Database, _ item: OutboxItem, _ settlement: OutboxSettlement, at now: Date) throws -> QueuedWrite.State? {
        switch settlement {
        case .delivered(let answer, let stalePrefixes, let rule):
            try removeResponses(db, withKeyPrefixes: stalePrefixes)
            // A pull removed the record after this write went out: the answer is older than the
            // removal and must not bring it back (the next pull brings the write's own change if
            // the server applied it after the removal).
            let outdated = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT outdated_by_pull FROM queued_writes WHERE id = ?"), arguments: [item.id]) ?? false
            let version = outdated ? nil : try LocalCache.apply(db, resource: item.resource, operation: item.operation, json: answer, at: now)
            try db.cachedStatement(sql: "DELETE FROM queued_writes WHERE id = ?").execute(arguments: [item.id])
            if let version {
                // The resource's later writes were made on top of this one: without the new base they
                // would conflict with their own past.
                try db.cachedStatement(sql: """
                    UPDATE queued_writes SET base_version = ?, base_json = ?
                    WHERE resource = ? AND id > ? AND \(QueuedWrite.State.pendingSQL)
                    """).execute(arguments: [version, answer, item.resource.description, item.id])
                if let rule { try raiseUnsent(db, of: item.resource, after: item.id, over: answer, rule) }
            }
            return nil
        case .acceptServer(let json):
            try db.execute(sql: "DELETE FROM queued_writes WHERE id = ? AND state = 'in_flight'", arguments: [item.id])
            guard db.changesCount > 0 else { return try state(db, item.id) }
            try LocalCache.apply(db, resource: item.resource, operation: .update, json: json, at: now)
            return nil
        case .resend(let body, let version, let serverJson):
            return try move(
                db, item.id, to: .queued, setting: "body = ?, base_version = ?, base_json = ?, next_attempt_at = NULL",
                [body, version, serverJson])
        case .conflict(let serverVersion, let serverJson):
            return try move(
                db, item.id, to: .conflict, setting: "server_version = ?, server_json = ?, detected_at = ?",
                [serverVersion, serverJson, now])
        case .deadLetter(let reason, let status, let problem, let prerequisite):
            if let prerequisite {
                let queued = try QueuedWrite
                    .filter(sql: QueuedWrite.State.pendingSQL)
                    .filter(QueuedWrite.Columns.resource == prerequisite.description
                        && QueuedWrite.Columns.operation == OutboxItem.Operation.create.rawValue)
                    .fetchCount(db)
                if queued > 0 { return try move(db, item.id, to: .queued, setting: "next_attempt_at = NULL", []) }
            }
            return try move(
                db, item.id, to: .deadLetter, setting: "failed_at = ?, reason = ?, status = ?, problem = ?",
                [now, reason, status, problem])
        case .retry(let date, let error):
            return try move(db, item.id, to: .queued, setting: "next_attempt_at = ?, last_error = ?", [date, error])
        }
    }

    /// Moves write `id` from in flight to `state`, setting `assignments` (SQL, `column = ?, ...`)
    /// to `arguments` in the same statement.
    ///
    /// - Returns: the write's state afterwards: `state`, or the one it was in when it was not in
    ///   flight (then nothing changed), `nil` when it is gone.
    private static func move(
        _ db: Database, _ id: Int64, to state: QueuedWrite.State, setting assignments: String, _ arguments: StatementArguments
    ) throws -> QueuedWrite.State? {
        var all: StatementArguments = [state.rawValue]
        all += arguments
        all += [id]
        try db.execute(sql: "UPDATE queued_writes SET state = ?, \(assignments) WHERE id = ? AND state = 'in_flight'", arguments: all)
        return db.changesCount > 0 ? state : try Self.state(db, id)
    }

    /// The state of write `id`, `nil` when it is gone.
    private static func state(_ db: Database, _ id: Int64) throws -> QueuedWrite.State? {
        try String.fetchOne(db, sql: "SELECT state FROM queued_writes WHERE id = ?", arguments: [id])
            .flatMap(QueuedWrite.State.init(rawValue:))
    }

    static func counts(_ db: Database) throws -> OutboxCounts {
        let row = try Row.fetchOne(db, sql: """
            SELECT TOTAL(\(QueuedWrite.State.pendingSQL)),
                   MIN(CASE WHEN \(QueuedWrite.State.pendingSQL) THEN created_at END),
                   TOTAL(state = 'dead_letter'), TOTAL(state = 'conflict')
            FROM queued_writes
            """)
        let total = { (index: Int) -> Int in Int(row?[index] as Double? ?? 0) }
        return OutboxCounts(
            pending: total(0), oldestPendingAt: row?[1], deadLetters: total(2), conflicts: total(3),
            lastSyncAt: try Self.preferences(db).lastSyncDate)
    }

    /// Raises the fields that only move one way of the resource's later writes never sent to the
    /// state `json` the server answered: rebased on it, a smaller watch time would be sent on its
    /// version and take back what the answer holds. (A write already sent keeps its body: its
    /// replay under the same key must be the same request.)
    private static func raiseUnsent(_ db: Database, of resource: ResourceKey, after id: Int64, over json: Data, _ rule: ConflictRule) throws {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT id, body FROM queued_writes
                WHERE resource = ? AND id > ? AND state = 'queued' AND attempts = 0 AND operation = 'update'
                """), arguments: [resource.description, id])
        for row in rows {
            let body: Data? = row["body"]
            let raised = rule.raised(body, over: json)
            if raised != body {
                try db.cachedStatement(sql: "UPDATE queued_writes SET body = ? WHERE id = ?").execute(arguments: [raised, row["id"] as Int64?])
            }
        }
    }
}
