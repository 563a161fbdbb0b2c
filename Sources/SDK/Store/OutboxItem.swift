import Foundation
import GRDB

/// A write waiting to reach the server.
///
/// It carries the `Idempotency-Key` it was given at enqueue time (reused on every replay), and
/// the version and representation it was based on, so a conflict can be merged three ways.
public struct OutboxItem: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "outbox"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    /// What the write does to its resource.
    public enum Operation: String, Codable, Sendable {
        case create, update, delete
    }

    public var id: Int64?
    /// The resource written, e.g. `progress/<course>/<lesson>`: items of one resource replay in order.
    public var resource: String
    public var operation: Operation
    public var method: String
    /// The request path, e.g. `/v1/courses/<id>/progress`.
    public var path: String
    public var body: Data?
    /// The version the write was based on (`nil` for creations and first writes).
    public var baseVersion: Int?
    /// The server representation the write was based on (for three-way merges).
    public var baseJson: Data?
    public var idempotencyKey: String
    public var createdAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var lastError: String?

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    public enum Columns {
        public static let id = Column("id")
        public static let resource = Column("resource")
        public static let createdAt = Column("created_at")
    }
}

/// A write the server refused for good, kept with the server's reason until the app retries or
/// discards it.
public struct DeadLetter: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "dead_letters"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public var id: Int64
    public var resource: String
    public var operation: OutboxItem.Operation
    public var method: String
    public var path: String
    public var body: Data?
    public var baseVersion: Int?
    public var baseJson: Data?
    public var idempotencyKey: String
    public var createdAt: Date
    public var failedAt: Date
    /// The server's problem `code` (e.g. `not_found`), or `stale` for writes older than 24 h.
    public var reason: String
    public var status: Int?
    /// The server's problem+json body.
    public var problem: Data?
}

/// A write whose base version was stale, parked for the app to resolve (the `manual` strategy).
public struct SyncConflict: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "conflicts"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public var id: Int64
    public var resource: String
    public var operation: OutboxItem.Operation
    public var method: String
    public var path: String
    /// What this client wanted to write.
    public var body: Data?
    public var baseVersion: Int?
    public var baseJson: Data?
    public var idempotencyKey: String
    public var createdAt: Date
    /// The server's version and representation when the conflict was detected.
    public var serverVersion: Int?
    public var serverJson: Data?
    public var detectedAt: Date
}

extension OutboxItem {
    func deadLetter(reason: String, status: Int?, problem: Data?, at now: Date) -> DeadLetter {
        DeadLetter(
            id: id ?? 0, resource: resource, operation: operation, method: method, path: path, body: body,
            baseVersion: baseVersion, baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt,
            failedAt: now, reason: reason, status: status, problem: problem)
    }

    func conflict(serverVersion: Int?, serverJson: Data?, at now: Date) -> SyncConflict {
        SyncConflict(
            id: id ?? 0, resource: resource, operation: operation, method: method, path: path, body: body,
            baseVersion: baseVersion, baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt,
            serverVersion: serverVersion, serverJson: serverJson, detectedAt: now)
    }
}
