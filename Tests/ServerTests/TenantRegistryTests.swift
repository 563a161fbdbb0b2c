import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The registry keeps a bounded number of tenant databases open.
@Suite(.timeLimit(.minutes(3))) struct TenantRegistryTests {
    @Test("beyond maxOpenTenants the least recently used databases are dropped and reopen on demand")
    func openDatabasesAreBounded() async throws {
        try await withTemporaryDirectory { directory in
            let registry = try TenantRegistry(storage: .directory(directory), maxOpenTenants: 2, now: { Date() })
            let ids = try (0..<5).map { try #require(TenantID("lru-\($0)")) }
            for id in ids { _ = try await registry.createTenant(id, name: id.rawValue) { _ in } }

            #expect(await registry.openCount == 2)
            let first = try await registry.database(for: try #require(ids.first))
            #expect(await first.isReachable())
            #expect(await registry.openCount == 2)
            await registry.close()
        }
    }
}
