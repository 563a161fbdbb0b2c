import Foundation
import GRDB
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// A new file-backed tenant's database is a copy of a migrated template (``TenantTemplate``): it
/// must be what the migrator builds, and hold nothing of another tenant.
@Suite(.timeLimit(.minutes(3))) struct TenantTemplateTests {
    @Test("a tenant made from the template has the schema and applied migrations of a database the migrator built")
    func templateTenantIsFullyMigrated() async throws {
        try await withTemporaryDirectory { directory in
            // Given a tenant the registry creates, and a database the migrator builds in a file of its own
            let registry = try TenantRegistry(storage: .directory(directory), now: { Date() })
            let id = try #require(TenantID("made-from-template"))
            _ = try await registry.createTenant(id, name: id.rawValue) { _ in }
            let migrated = try TenantDatabase.open(
                tenantID: try #require(TenantID("migrated")), at: directory.appendingPathComponent("migrated.sqlite"))

            // When both schemas are read
            let made = try await Self.schema(of: try await registry.database(for: id).writer)
            let expected = try await Self.schema(of: migrated.writer)

            // Then they are the same, row for row
            #expect(made.objects == expected.objects)
            #expect(made.migrations == expected.migrations)
            #expect(made.migrations == TenantMigrations.migrator.migrations)
            #expect(made.journalMode == "wal")
            let file = directory.appendingPathComponent("tenants/\(id.rawValue).sqlite")
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            await registry.close()
        }
    }

    @Test("the template's header says WAL, so a tenant's file opens without switching its journal mode")
    func templateIsInWALMode() throws {
        let template = try TenantTemplate()
        // Bytes 18 and 19 of a SQLite file's header are its write and read versions: 2 for WAL.
        #expect(template.contents.count > 100)
        #expect(Array(template.contents.prefix(20).suffix(2)) == [2, 2])
    }

    @Test("two tenants made from the template share no rows")
    func templateTenantsShareNoRows() async throws {
        try await withTemporaryDirectory { directory in
            // Given one tenant seeded with the test fixture
            let registry = try TenantRegistry(storage: .directory(directory), now: { Date() })
            let seeded = try #require(TenantID("seeded"))
            let seeder = Seeder(passwords: PasswordHasher(cost: 4), now: Date())
            let fixture = try BundledSeeds.testTenant
            _ = try await registry.createTenant(seeded, name: "seeded") { store in
                try await seeder.seed(fixture, into: store, tenantID: seeded)
            }

            // When a second, empty tenant is made after it
            let empty = try #require(TenantID("empty"))
            _ = try await registry.createTenant(empty, name: "empty") { _ in }

            // Then every table of the second holds only what the migrations themselves wrote
            let seededRows = try await Self.rowCounts(of: try await registry.database(for: seeded).writer)
            let emptyRows = try await Self.rowCounts(of: try await registry.database(for: empty).writer)
            let migrated = try TenantDatabase.open(tenantID: try #require(TenantID("migrated")), at: nil)
            let migratedRows = try await Self.rowCounts(of: migrated.writer)
            #expect(emptyRows == migratedRows)
            #expect(try #require(seededRows["users"]) > 0, "the fixture seeded no users: the test proves nothing")
            #expect(try #require(seededRows["courses"]) > 0, "the fixture seeded no courses: the test proves nothing")
            await registry.close()
        }
    }

    /// A database's schema objects (`sqlite_master` rows, sorted), applied migrations and journal mode.
    private static func schema(of writer: any DatabaseWriter) async throws
        -> (objects: [[String?]], migrations: [String], journalMode: String)
    {
        try await writer.read { db in
            let objects = try Row.fetchAll(
                db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
            ).map { row in [row["type"], row["name"], row["tbl_name"], row["sql"]] as [String?] }
            let migrations = try TenantMigrations.migrator.appliedMigrations(db)
            let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
            return (objects, migrations, journalMode)
        }
    }

    /// How many rows each table of the database holds.
    private static func rowCounts(of writer: any DatabaseWriter) async throws -> [String: Int] {
        try await writer.read { db in
            var counts: [String: Int] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0
            }
            return counts
        }
    }
}
