import Foundation
import GRDB

/// One write the outbox holds, whatever became of it so far: a row of the `queued_writes` table.
///
/// The write itself (resource, request, base, key) is stored once; its ``State`` says where it
/// is, and the fields of that state say why. The public ``OutboxItem``, ``DeadLetter`` and
/// ``SyncConflict`` are views of it (``item()``, ``deadLetter()``, ``conflict()``). A write
/// moves between states by one `UPDATE` of its row (``OfflineStore/settle(_:_:at:)``), so it
/// keeps its id, its place and its key, and is never in two states or in none.
struct QueuedWrite: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "queued_writes"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    /// Where a write is.
    enum State: String, Codable, Sendable, CaseIterable {
        /// Waiting to be sent (again, after `nextAttemptAt` when that is set).
        case queued
        /// Claimed by a drain: its request may be on the wire. A drain that ended without settling
        /// it (a crash, `kill -9`) leaves it here; the next drain, holding the drain lease, sends it
        /// again with the same key.
        case inFlight = "in_flight"
        /// Refused by the server for good (`failedAt`, `reason`, `status`, `problem`).
        case deadLetter = "dead_letter"
        /// Parked for the user after a version conflict (`serverVersion`, `serverJson`, `detectedAt`).
        case conflict

        /// The states of a write still to be sent, as an SQL condition on `state`.
        static let pendingSQL = "state IN ('queued', 'in_flight')"
    }

    var id: Int64?
    var state: State
    var resource: String
    var operation: OutboxItem.Operation
    var method: String
    var path: String
    var body: Data?
    var baseVersion: Int?
    var baseJson: Data?
    var idempotencyKey: String
    var createdAt: Date
    var attempts: Int
    var nextAttemptAt: Date?
    var lastError: String?
    var failedAt: Date?
    var reason: String?
    var status: Int?
    var problem: Data?
    var serverVersion: Int?
    var serverJson: Data?
    var detectedAt: Date?
    /// Whether a pull removed the record after this write went out: its answer, replayed or late,
    /// is older than the removal and is not cached when it settles.
    var outdatedByPull = false

    /// The writes still to be sent (queued or in flight), in queue order.
    static var pending: QueryInterfaceRequest<QueuedWrite> {
        filter(sql: State.pendingSQL).order(Columns.id)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    enum Columns {
        static let id = Column("id")
        static let state = Column("state")
        static let resource = Column("resource")
        static let operation = Column("operation")
    }

    /// The write as the outbox's item; a row whose resource the SDK cannot read fails the read.
    func item() throws -> OutboxItem {
        let (id, key) = try identity()
        return OutboxItem(
            id: id, resource: key, operation: operation, method: method, path: path, body: body, baseVersion: baseVersion,
            baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt, attempts: attempts,
            nextAttemptAt: nextAttemptAt, lastError: lastError)
    }

    /// The write as a dead letter (the table's checks keep `failedAt` and `reason` set in that state).
    func deadLetter() throws -> DeadLetter {
        let (id, key) = try identity()
        guard let failedAt, let reason else { throw StoreRowError(description: "dead letter \(id) has no reason") }
        return DeadLetter(
            id: id, resource: key, operation: operation, method: method, path: path, body: body, baseVersion: baseVersion,
            baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt, failedAt: failedAt, reason: reason,
            status: status, problem: problem)
    }

    /// The write as a parked conflict (the table's checks keep `detectedAt` set in that state).
    func conflict() throws -> SyncConflict {
        let (id, key) = try identity()
        guard let detectedAt else { throw StoreRowError(description: "conflict \(id) has no detection date") }
        return SyncConflict(
            id: id, resource: key, operation: operation, method: method, path: path, body: body, baseVersion: baseVersion,
            baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt, serverVersion: serverVersion,
            serverJson: serverJson, detectedAt: detectedAt)
    }

    private func identity() throws -> (Int64, ResourceKey) {
        guard let id, let key = ResourceKey(resource) else { throw StoreRowError.unreadable(table: Self.databaseTableName, resource: resource) }
        return (id, key)
    }
}

extension QueuedWrite {
    /// Read by column name, not through `Decodable`: every claim reads its write, and the coder
    /// with its snake-case strategy was most of a claim's cost.
    init(row: Row) throws {
        let stateName: String = try row.decode(forColumn: "state")
        let operationName: String = try row.decode(forColumn: "operation")
        guard let state = State(rawValue: stateName), let operation = OutboxItem.Operation(rawValue: operationName) else {
            throw StoreRowError(description: "a row of queued_writes has an unknown state or operation: \(stateName) \(operationName)")
        }
        self.init(
            id: try row.decode(forColumn: "id"), state: state, resource: try row.decode(forColumn: "resource"), operation: operation,
            method: try row.decode(forColumn: "method"), path: try row.decode(forColumn: "path"), body: try row.decode(forColumn: "body"),
            baseVersion: try row.decode(forColumn: "base_version"), baseJson: try row.decode(forColumn: "base_json"),
            idempotencyKey: try row.decode(forColumn: "idempotency_key"), createdAt: try row.decode(forColumn: "created_at"),
            attempts: try row.decode(forColumn: "attempts"), nextAttemptAt: try row.decode(forColumn: "next_attempt_at"),
            lastError: try row.decode(forColumn: "last_error"), failedAt: try row.decode(forColumn: "failed_at"),
            reason: try row.decode(forColumn: "reason"), status: try row.decode(forColumn: "status"),
            problem: try row.decode(forColumn: "problem"), serverVersion: try row.decode(forColumn: "server_version"),
            serverJson: try row.decode(forColumn: "server_json"), detectedAt: try row.decode(forColumn: "detected_at"),
            outdatedByPull: try row.decode(forColumn: "outdated_by_pull"))
    }
}
