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

extension OutboxRecord {
    /// Read by column name, not through `Decodable`: every claim reads its item, and the coder
    /// with its snake-case strategy was most of a claim's cost.
    init(row: Row) throws {
        let operation: String = try row.decode(forColumn: "operation")
        guard let parsed = OutboxItem.Operation(rawValue: operation) else {
            throw StoreRowError(description: "a row of outbox has an unknown operation: \(operation)")
        }
        self.init(
            id: try row.decode(forColumn: "id"), resource: try row.decode(forColumn: "resource"), operation: parsed,
            method: try row.decode(forColumn: "method"), path: try row.decode(forColumn: "path"), body: try row.decode(forColumn: "body"),
            baseVersion: try row.decode(forColumn: "base_version"), baseJson: try row.decode(forColumn: "base_json"),
            idempotencyKey: try row.decode(forColumn: "idempotency_key"), createdAt: try row.decode(forColumn: "created_at"),
            attempts: try row.decode(forColumn: "attempts"), nextAttemptAt: try row.decode(forColumn: "next_attempt_at"),
            lastError: try row.decode(forColumn: "last_error"))
    }
}

/// A row of the store the SDK cannot read back (written by a newer SDK, or edited by hand).
struct StoreRowError: Error, CustomStringConvertible {
    let description: String

    static func unreadable(table: String, resource: String) -> StoreRowError {
        StoreRowError(description: "a row of \(table) names a resource this SDK does not know: \(resource)")
    }
}
