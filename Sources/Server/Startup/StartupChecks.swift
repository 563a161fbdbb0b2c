import EduGoServerStore
import Foundation
import Logging

/// What must hold before the server opens its port: dev mode and the demo tenants (whose
/// passwords are published) only ever face loopback, and test-cheap password hashing only dev mode.
enum StartupChecks {
    /// The tenants seeded with published passwords.
    static let demoTenantIDs: [TenantID] = ["demo", "acme"].compactMap(TenantID.init)

    /// Refuses a bcrypt cost bcrypt cannot use or a test cost outside dev mode, and dev mode and
    /// demo seeding on a non-loopback host.
    static func validate(_ configuration: ServerConfiguration) throws {
        let cost = configuration.passwordHashCost
        guard ServerConfiguration.passwordHashCosts.contains(cost) else {
            throw StartupError.passwordHashCostOutOfRange(cost: cost)
        }
        if !configuration.devMode, cost < ServerConfiguration.minimumPasswordHashCostOutsideDevMode {
            throw StartupError.weakPasswordHashCost(cost: cost)
        }
        guard !HostAddress.isLoopback(configuration.host) else { return }
        if configuration.devMode { throw StartupError.devModeOnNetwork(host: configuration.host) }
        if configuration.seedDemoData || configuration.seedFile != nil {
            throw StartupError.demoAccountsOnNetwork(host: configuration.host)
        }
    }

    /// The addresses of every account the built-in seeds make (demo, acme and `POST /__dev/tenants`).
    static var seedCatalogEmailKeys: [String] {
        let demo = (try? BundledSeeds.demo.tenants.flatMap(\.users)) ?? []
        let test = (try? BundledSeeds.testTenant.users) ?? []
        return (demo + test).map { UserRecord.emailKey($0.email) }
    }

    /// With `--drop-demo-tenants`, deletes every tenant in which anyone could sign in with a
    /// published password (and `demo` and `acme` in any case); then refuses a non-loopback host
    /// while any such tenant is left.
    static func handleDemoTenants(
        _ configuration: ServerConfiguration, tenants: TenantRegistry, passwords: PasswordHasher, logger: Logger
    ) async throws {
        let networked = !HostAddress.isLoopback(configuration.host)
        guard configuration.dropDemoTenants || networked else { return }
        let emailKeys = seedCatalogEmailKeys
        for id in try await tenants.tenantIDs() {
            let published = try await publishedAccountCount(
                in: tenants.store(for: id), emailKeys: emailKeys, passwords: passwords)
            guard published > 0 || (configuration.dropDemoTenants && demoTenantIDs.contains(id)) else { continue }
            if configuration.dropDemoTenants {
                _ = try await tenants.deleteTenant(id)
                logger.notice("deleted a tenant with published passwords", metadata: ["tenant": .string(id.rawValue)])
            } else {
                throw StartupError.demoAccountsOnNetwork(host: configuration.host)
            }
        }
    }

    /// How many accounts of `store` anyone could sign in to with a published password: those
    /// holding their seeded hash or one of `emailKeys` (``TenantStore/publishedAccountCount(emailKeys:)``),
    /// and those whose changed hash the published password still opens (tried with bcrypt, so an
    /// account reset to the very password its seed published is found).
    static func publishedAccountCount(
        in store: TenantStore, emailKeys: [String], passwords: PasswordHasher
    ) async throws -> Int {
        var count = try await store.publishedAccountCount(emailKeys: emailKeys)
        for credential in try await store.changedPublishedCredentials() {
            if try await passwords.verify(credential.password, hash: credential.currentHash) { count += 1 }
        }
        return count
    }
}
