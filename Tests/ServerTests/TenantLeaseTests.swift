import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Issue 46 item 1 and issue 43 item 4: a tenant's database is leased, never closed under a holder.
///
/// The SIGSEGV of the plain `swift test` run ("bad pointer dereference at 0x65" in libsqlite3,
/// under GRDB's `DatabaseQueue.read`) was a read of a closed in-memory database: the registry
/// closed a tenant's database when the tenant was deleted or the server shut down, while a request
/// still held it; GRDB then handed a null connection to `sqlite3_get_autocommit`, which reads the
/// `autoCommit` byte at offset 0x65 of the connection. Seen red (2026-11-28): with the closes put
/// back (`close()` on the tenant's writer in `deleteTenant` and in `close()`), `swift test --filter
/// TenantLeaseTests` died with SIGSEGV, "Bad pointer dereference at 0x65" in libsqlite3 under
/// `DatabaseQueue.read` (`SerializedDatabase.execute`), from `heldStoreOutlivesShutdown`'s read.
@Suite(.timeLimit(.minutes(2))) struct TenantLeaseTests {
    @Test("a request holding an in-memory tenant's store still reads it after the tenant is deleted")
    func heldStoreOutlivesDeletion() async throws {
        // Given an in-memory tenant with one user, and a request holding its store
        let registry = try TenantRegistry(storage: .inMemory, now: { Date() })
        let id = try #require(TenantID("deleted-while-held"))
        _ = try await registry.createTenant(id, name: id.rawValue) { _ in }
        let held = try await registry.store(for: id)

        // When the tenant is deleted
        #expect(try await registry.deleteTenant(id))

        // Then the request's reads still answer (it finishes on what it holds), and the tenant is gone for the next one
        #expect(try await held.userCount() == 0)
        #expect(try await held.changeSequence() >= 0)
        await #expect(throws: APIError.self) { try await registry.store(for: id) }
    }

    @Test("a request holding a store still reads it after the registry closes for shutdown")
    func heldStoreOutlivesShutdown() async throws {
        // Given an in-memory and a file-backed registry, each with a tenant a request holds
        try await withTemporaryDirectory { directory in
            for storage in [ServerConfiguration.Storage.inMemory, .directory(directory)] {
                let registry = try TenantRegistry(storage: storage, now: { Date() })
                let id = try #require(TenantID("held-at-shutdown"))
                _ = try await registry.createTenant(id, name: id.rawValue) { _ in }
                let held = try await registry.store(for: id)

                // When the server shuts down (the registry lets go of its databases)
                await registry.close()

                // Then the request's reads still answer, and so does the registry
                #expect(try await held.userCount() == 0, "\(storage)")
                #expect(await registry.isReachable(), "\(storage)")
            }
        }
    }

    @Test("a request for a tenant whose database was dropped while a request held it gets that same database")
    func droppedButHeldDatabaseIsHandedOutAgain() async throws {
        try await withTemporaryDirectory { directory in
            // Given a registry keeping one tenant open, and a request holding tenant a's database
            let registry = try TenantRegistry(storage: .directory(directory), maxOpenTenants: 1, now: { Date() })
            let a = try #require(TenantID("held-a"))
            let b = try #require(TenantID("held-b"))
            _ = try await registry.createTenant(a, name: "a") { _ in }
            _ = try await registry.createTenant(b, name: "b") { _ in }
            let held = try await registry.database(for: a)

            // When b's use drops a from the open set, and a is asked for again
            _ = try await registry.database(for: b)
            let again = try await registry.database(for: a)

            // Then it is the held database, not a second pool on a's file
            #expect(again.writer === held.writer)
        }
    }

    @Test("a dropped database that nothing holds closes, and its tenant reopens on its next use")
    func droppedUnheldDatabaseCloses() async throws {
        try await withTemporaryDirectory { directory in
            // Given a registry keeping one tenant open, two tenants, and a lease on a's database
            let registry = try TenantRegistry(storage: .directory(directory), maxOpenTenants: 1, now: { Date() })
            let a = try #require(TenantID("unheld-a"))
            let b = try #require(TenantID("unheld-b"))
            _ = try await registry.createTenant(a, name: "a") { _ in }
            let lease = try await registry.database(for: a).lease
            _ = try await registry.createTenant(b, name: "b") { _ in }

            // When b's use dropped a (nothing else holds a)
            // Then a's connections are closed, only b's stay open
            #expect(lease.database == nil)
            #expect(await registry.liveCount == 1)

            // And a reopens on demand
            #expect(try await registry.store(for: a).userCount() == 0)
        }
    }
}
