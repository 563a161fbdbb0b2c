import Foundation
import GRDB

/// The registry database (`registry.sqlite`): which tenants exist. Each method is one transaction.
package struct RegistryStore: Sendable {
    private let writer: any DatabaseWriter

    /// Opens (creating and migrating if needed) the registry under `dataDirectory`, or one in
    /// memory when there is none.
    package init(dataDirectory: URL?) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        switch dataDirectory {
        case .some(let root):
            writer = try DatabasePool(
                path: root.appendingPathComponent("registry.sqlite").path, configuration: configuration)
        case .none:
            writer = try DatabaseQueue(configuration: configuration)
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "tenants") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("created_at", .datetime).notNull()
            }
        }
        try migrator.migrate(writer)
    }

    /// One tenant as the registry lists it.
    package struct Listing: Sendable {
        package var id: TenantID
        package var name: String
        package var createdAt: Date

        package init(id: TenantID, name: String, createdAt: Date) {
            self.id = id
            self.name = name
            self.createdAt = createdAt
        }
    }

    /// The ids of all tenants, oldest first.
    package func tenantIDs() async throws -> [TenantID] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM tenants ORDER BY created_at, id").compactMap(TenantID.init)
        }
    }

    /// A page of tenants, newest first (in creation order when created at the same instant), and
    /// how many there are in all.
    package func tenantPage(offset: Int, limit: Int) async throws -> (items: [Listing], total: Int) {
        try await writer.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tenants") ?? 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, name, created_at FROM tenants ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
                arguments: [limit, offset])
            let items = rows.compactMap { row -> Listing? in
                guard let id = TenantID(row["id"]) else { return nil }
                return Listing(id: id, name: row["name"], createdAt: row["created_at"])
            }
            return (items, total)
        }
    }

    /// Whether the tenant is registered.
    package func contains(_ id: TenantID) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM tenants WHERE id = ?)", arguments: [id.rawValue])
                ?? false
        }
    }

    /// Registers a tenant.
    package func insert(_ id: TenantID, name: String, createdAt: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)",
                arguments: [id.rawValue, name, createdAt])
        }
    }

    /// Removes a tenant's row. - Returns: Whether it existed.
    package func delete(_ id: TenantID) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM tenants WHERE id = ?", arguments: [id.rawValue])
            return db.changesCount > 0
        }
    }

    /// Whether the registry database answers.
    package func isReachable() async -> Bool {
        (try? await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }
}
