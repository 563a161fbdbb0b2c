import Foundation
import GRDB

/// A ``DeadLetter`` as a row of the `dead_letters` table.
struct DeadLetterRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "dead_letters"
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
    var failedAt: Date
    var reason: String
    var status: Int?
    var problem: Data?

    func value() throws -> DeadLetter {
        guard let key = ResourceKey(resource) else { throw StoreRowError.unreadable(table: Self.databaseTableName, resource: resource) }
        return DeadLetter(
            id: id, resource: key, operation: operation, method: method, path: path, body: body, baseVersion: baseVersion,
            baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt, failedAt: failedAt, reason: reason,
            status: status, problem: problem)
    }

    /// The dead letter's write back in the outbox under its old id.
    func requeued(at now: Date) -> OutboxRecord {
        OutboxRecord(
            id: id, resource: resource, operation: operation, method: method, path: path, body: body,
            baseVersion: baseVersion, baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: now, attempts: 1,
            nextAttemptAt: nil, lastError: nil)
    }
}

extension OutboxItem {
    /// This item refused for good.
    func deadLetter(reason: String, status: Int?, problem: Data?, at now: Date) -> DeadLetterRecord {
        DeadLetterRecord(
            id: id, resource: resource.description, operation: operation, method: method, path: path, body: body,
            baseVersion: baseVersion, baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt,
            failedAt: now, reason: reason, status: status, problem: problem)
    }
}
