import Foundation
import GRDB

/// An ``OutboxItem`` as a row of the `outbox` table (the resource as its text).
struct OutboxRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "outbox"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var id: Int64?
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

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    enum Columns {
        static let id = Column("id")
        static let resource = Column("resource")
        static let operation = Column("operation")
    }

    /// The row as the SDK's value; a row whose resource the SDK cannot read fails the read.
    func value() throws -> OutboxItem {
        guard let id, let key = ResourceKey(resource) else { throw StoreRowError.unreadable(table: Self.databaseTableName, resource: resource) }
        return OutboxItem(
            id: id, resource: key, operation: operation, method: method, path: path, body: body, baseVersion: baseVersion,
            baseJson: baseJson, idempotencyKey: idempotencyKey, createdAt: createdAt, attempts: attempts,
            nextAttemptAt: nextAttemptAt, lastError: lastError)
    }
}

/// A row of the store the SDK cannot read back (written by a newer SDK, or edited by hand).
struct StoreRowError: Error, CustomStringConvertible {
    let description: String

    static func unreadable(table: String, resource: String) -> StoreRowError {
        StoreRowError(description: "a row of \(table) names a resource this SDK does not know: \(resource)")
    }
}
