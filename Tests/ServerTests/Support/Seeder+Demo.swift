import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

extension Seeder {
    /// Seeds `store` with the built-in demo seed's tenant `id` (`demo` or `acme`).
    func seedDemo(_ id: String, into store: TenantStore) async throws {
        let tenant = try #require(try BundledSeeds.demo.tenant(id))
        try await seed(tenant, into: store, tenantID: try #require(TenantID(id)))
    }
}
