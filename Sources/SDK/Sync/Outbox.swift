import Foundation
import GRDB

/// The persistent queue of writes made while the server could not be reached (or before it
/// answered). Items replay in order per resource, each with the `Idempotency-Key` it got at
/// enqueue time, so a replay after a lost response is applied once.
///
/// Enqueueing coalesces with the resource's last item that was never sent: two updates become
/// one, a create followed by an update stays one create, and a create followed by a delete
/// leaves nothing. Items already attempted are never rewritten (their key may be on the server).
public struct Outbox: Sendable {
    let store: OfflineStore
    let now: @Sendable () -> Date
    let makeKey: @Sendable () -> String

    /// Made by the session's ``SyncEngine``; not public API (`@_spi(EduGoInternals)`, for the benchmarks).
    @_spi(EduGoInternals) public init(store: OfflineStore, now: @escaping @Sendable () -> Date = { Date() }, makeKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.store = store
        self.now = now
        self.makeKey = makeKey
    }

    /// Queues `write`; returns the item that now carries it, or `nil` when it cancelled an unsent
    /// creation (create + delete). Repositories queue their writes through it; not public API
    /// (`@_spi(EduGoInternals)`, for the benchmarks).
    @discardableResult
    @_spi(EduGoInternals) public func enqueue(_ write: PendingWrite) async throws -> OutboxItem? {
        let created = now()
        let key = makeKey()
        return try await store.writer.write { db -> OutboxItem? in
            // Cached statements: enqueueing is on the path of every optimistic write.
            let lastStatement = try db.cachedStatement(
                sql: "SELECT * FROM outbox WHERE resource = ? ORDER BY id DESC LIMIT 1")
            if var last = try OutboxItem.fetchOne(lastStatement, arguments: [write.resource]), last.attempts == 0 {
                switch (last.operation, write.operation) {
                case (.create, .update), (.update, .update):
                    last.body = JSONObject.merge(last.body, write.body)
                    try db.cachedStatement(sql: "UPDATE outbox SET body = ? WHERE id = ?").execute(arguments: [last.body, last.id])
                    return last
                case (.create, .delete):
                    try db.cachedStatement(sql: "DELETE FROM outbox WHERE id = ?").execute(arguments: [last.id])
                    return nil
                case (.update, .delete):
                    last.operation = .delete
                    last.method = write.method.rawValue
                    last.path = write.endpoint.encodedPath
                    last.body = nil
                    try last.update(db)
                    return last
                default:
                    break
                }
            }
            var item = OutboxItem(
                id: nil, resource: write.resource, operation: write.operation, method: write.method.rawValue,
                path: write.endpoint.encodedPath, body: write.body, baseVersion: write.baseVersion,
                baseJson: write.baseJson, idempotencyKey: key, createdAt: created, attempts: 0, nextAttemptAt: nil,
                lastError: nil)
            try db.cachedStatement(sql: """
                INSERT INTO outbox (resource, operation, method, path, body, base_version, base_json, idempotency_key, created_at, attempts)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                """).execute(arguments: [
                    item.resource, item.operation.rawValue, item.method, item.path, item.body, item.baseVersion,
                    item.baseJson, item.idempotencyKey, item.createdAt,
                ])
            item.id = db.lastInsertedRowID
            return item
        }
    }

    /// Every pending item, oldest first.
    public func pending() async throws -> [OutboxItem] {
        try await store.writer.read { db in try OutboxItem.order(OutboxItem.Columns.id).fetchAll(db) }
    }

    /// Whether writes to `resource` are still waiting.
    public func hasPending(resource: String) async throws -> Bool {
        try await store.writer.read { db in
            try OutboxItem.filter(OutboxItem.Columns.resource == resource).fetchCount(db) > 0
        }
    }

    /// Writes the server refused, newest first.
    public func deadLetters() async throws -> [DeadLetter] {
        try await store.writer.read { db in try DeadLetter.order(Column("failed_at").desc).fetchAll(db) }
    }

    /// Moves a dead letter back into the outbox to be tried again, with its `Idempotency-Key`.
    ///
    /// It goes back to its place: it replays before the writes to its resource made after it, so
    /// an old intent never overwrites a newer one. Its key may be on the server already, so no
    /// later write is merged into it. It has a new 24 hours before it is `stale`.
    public func retryDeadLetter(id: Int64) async throws {
        try await store.requeueDeadLetter(id: id, at: now())
    }

    /// Drops a dead letter for good.
    public func discardDeadLetter(id: Int64) async throws {
        _ = try await store.writer.write { db in try DeadLetter.deleteOne(db, key: id) }
    }

    /// Conflicts parked for the app (the `manual` strategy), oldest first.
    public func conflicts() async throws -> [SyncConflict] {
        try await store.writer.read { db in try SyncConflict.order(Column("detected_at")).fetchAll(db) }
    }
}

/// How the app settles a parked conflict.
public enum ConflictChoice: Sendable, Equatable {
    /// Send this client's write again, on top of the server's version.
    case keepMine
    /// Drop this client's write; take the server's state.
    case keepServer
    /// Send this body instead, on top of the server's version.
    case custom(Data)
}

extension Outbox {
    /// Settles a parked conflict: back into the outbox (mine, custom) or dropped (server).
    ///
    /// A write sent again goes back to its place, before the writes to its resource made after
    /// it, on top of the server's version; no later write is merged into it.
    public func resolveConflict(id: Int64, choice: ConflictChoice) async throws {
        try await store.settleConflict(id: id, choice: choice, at: now())
    }
}
