import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Snapshot files on disk: private to the server's user, and gone with their tenant.
@Suite(.timeLimit(.minutes(2)))
struct SnapshotFileTests {
    @Test("a snapshot file is 0600 in 0700 folders")
    func snapshotFilesArePrivate() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            let snapshot = try await withServer(configuration) { client in try await client.saveSnapshot() }
            let folder = directory.appendingPathComponent("snapshots", isDirectory: true)
            #expect(try posixMode(of: folder) == 0o700)
            #expect(try posixMode(of: folder.appendingPathComponent("demo")) == 0o700)
            #expect(try posixMode(of: folder.appendingPathComponent("demo/\(snapshot.id).sqlite")) == 0o600)
        }
    }

    @Test("a deleted tenant's snapshots are removed from disk with it")
    func deletedTenantTakesItsSnapshots() async throws {
        try await withTemporaryDirectory { directory in
            // Given snapshots of acme and demo saved by a dev-mode server
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            try await withServer(configuration) { client in
                _ = try await client.saveSnapshot(tenant: "acme")
                _ = try await client.saveSnapshot(tenant: "demo")
            }
            let acme = directory.appendingPathComponent("snapshots/acme", isDirectory: true)
            #expect(FileManager.default.fileExists(atPath: acme.path))

            // When a server starts with --drop-demo-tenants (which deletes both tenants)
            configuration.devMode = false
            configuration.seedDemoData = false
            configuration.dropDemoTenants = true
            configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
            try await withServer(configuration) { _ in }

            // Then their snapshot folders are gone too.
            #expect(!FileManager.default.fileExists(atPath: acme.path))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("snapshots/demo").path))
        }
    }

    @Test("a tenant created again under a deleted tenant's id starts with no snapshots")
    func recreatedTenantStartsEmpty() async throws {
        try await withTemporaryDirectory { directory in
            let storage = ServerConfiguration.Storage.directory(directory)
            let snapshots = TenantSnapshots(storage: storage, limit: 5, now: { Date() })
            let registry = try TenantRegistry(storage: storage, now: { Date() }, snapshots: snapshots)
            let id = try #require(TenantID("t-again"))
            let store = try await registry.createTenant(id, name: "Again") { _ in }
            _ = try await snapshots.save(store)
            #expect(await snapshots.list(id).count == 1)

            #expect(try await registry.deleteTenant(id))
            _ = try await registry.createTenant(id, name: "Again") { _ in }
            #expect(await snapshots.list(id).isEmpty)
            await registry.close()
        }
    }
}

/// The permission bits of the file or folder at `url`.
private func posixMode(of url: URL) throws -> Int {
    ((try FileManager.default.attributesOfItem(atPath: url.path))[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
