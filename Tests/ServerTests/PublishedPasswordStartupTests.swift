import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Audit issue 31, item 6: every tenant in which a published (seeded) password still signs in
/// keeps a server off the network, test tenants of `POST /__dev/tenants` included.
@Suite struct PublishedPasswordStartupTests {
    @Test("a test tenant made by POST /__dev/tenants refuses a networked start until --drop-demo-tenants deletes it")
    func devTenantRefusesNetworkedStart() async throws {
        try await withTemporaryDirectory { directory in
            // Given a data directory with one test tenant (and no demo tenants), made on loopback
            let local = StartupSafetyTests.configuration(
                host: "127.0.0.1", devMode: true, seed: false, storage: .directory(directory))
            let tenant = try await withServer(local) { client in
                let response = try await client.send(.post, "/__dev/tenants")
                try #require(response.status == .created, "\(response.text)")
                return try response.decode(DevTenantBody.self)
            }
            let admin = try #require(tenant.accounts.first { $0.role == "admin" })

            // When it is served on 0.0.0.0, the start is refused
            let network = StartupSafetyTests.configuration(
                host: "0.0.0.0", devMode: false, seed: false, storage: .directory(directory))
            await #expect(throws: StartupError.demoAccountsOnNetwork(host: "0.0.0.0")) {
                _ = try await buildApplication(network)
            }

            // And with --drop-demo-tenants it starts without the test tenant
            var dropping = network
            dropping.dropDemoTenants = true
            try await withServer(dropping) { client in
                try expectProblem(
                    try await client.login(email: admin.email, password: admin.password, tenant: tenant.tenantId),
                    .notFound, "tenant_not_found")
            }
        }
    }

    @Test("a seeded account counts as published while it holds its seeded hash, whatever its address")
    func publishedHashesAreRecorded() async throws {
        // Given the demo tenant, every account seeded with a published password
        let database = try await TenantStoreTests.demoTenant()
        let store = TenantStore(database)
        let seeded = try await store.publishedAccountCount(emailKeys: [])
        #expect(seeded == DemoAccount.seeded.filter { $0.tenant == "demo" }.count)

        // When one of them sets a new password, it no longer counts
        try await LoginResetRaceTests.resetPassword(
            of: "student1@demo.edugo.dev", in: store, to: try await PasswordHasher(cost: 4).hash("Brand-New-Pass-1"))
        #expect(try await store.publishedAccountCount(emailKeys: []) == seeded - 1)
    }

    @Test("an account reset to the very password its seed published still counts: the published password is tried, not only its hash")
    func resetToThePublishedPasswordStillCounts() async throws {
        // Given the demo tenant, every account seeded with a published password
        let database = try await TenantStoreTests.demoTenant()
        let store = TenantStore(database)
        let hasher = PasswordHasher(cost: 4)
        let seeded = try await StartupChecks.publishedAccountCount(in: store, emailKeys: [], passwords: hasher)
        #expect(seeded == DemoAccount.seeded.filter { $0.tenant == "demo" }.count)

        // When one resets to its published password (a new salt, so a new hash) and another to a password of its own
        try await LoginResetRaceTests.resetPassword(
            of: "student1@demo.edugo.dev", in: store, to: try await hasher.hash("Demo-Student-2026"))
        try await LoginResetRaceTests.resetPassword(
            of: "student2@demo.edugo.dev", in: store, to: try await hasher.hash("Brand-New-Pass-1"))

        // Then the first still counts, and only the second does not
        #expect(try await StartupChecks.publishedAccountCount(in: store, emailKeys: [], passwords: hasher) == seeded - 1)
    }
}
