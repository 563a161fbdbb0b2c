import Foundation
import GRDB

/// A ``SyncConflict`` as a row of the `conflicts` table.
struct ConflictRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "conflicts"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var id: Int64
    var resource: String
    var operation: OutboxItem.Operation
    var method: String
    var path: String
    var body: Data?
    var baseVersion: Int?
    var baseJson: Data?
    var idempotencyKey: String
    var createdAt: Date
    var serverVersion: Int?
    var serverJson: Data?
    var detectedAt: Date

    func value() throws -> SyncConflict {
        guard let key = ResourceKey(resource) else { throw StoreRowError.unreadable(table: Self.databaseTableName, resource: resource) }
        return SyncConflict(
            id: id, resource: key, operation: operation, method: method, path: path, body: body, baseVersion: baseVersion,
            baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt, serverVersion: serverVersion,
            serverJson: serverJson, detectedAt: detectedAt)
    }

    /// The conflict's write back in the outbox under its old id, with `body` on top of the
    /// server's version, counted as attempted (no later write is merged into it).
    func requeued(body: Data?, at now: Date) -> OutboxRecord {
        OutboxRecord(
            id: id, resource: resource, operation: operation, method: method, path: path, body: body,
            baseVersion: serverVersion, baseJson: serverJson, idempotencyKey: idempotencyKey, createdAt: now, attempts: 1,
            nextAttemptAt: nil, lastError: nil)
    }
}

extension OutboxItem {
    /// This item parked for the user, with the server's state when the conflict was detected.
    func conflict(serverVersion: Int?, serverJson: Data?, at now: Date) -> ConflictRecord {
        ConflictRecord(
            id: id, resource: resource.description, operation: operation, method: method, path: path, body: body,
            baseVersion: baseVersion, baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt,
            serverVersion: serverVersion, serverJson: serverJson, detectedAt: now)
    }
}
