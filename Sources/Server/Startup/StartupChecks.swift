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
        if configuration.seedDemoData { throw StartupError.demoAccountsOnNetwork(host: configuration.host) }
    }

    /// Deletes the demo tenants when asked to, then refuses a non-loopback host while any
    /// published demo account is still present.
    static func handleDemoTenants(
        _ configuration: ServerConfiguration, tenants: TenantRegistry, logger: Logger
    ) async throws {
        if configuration.dropDemoTenants {
            for id in demoTenantIDs where try await tenants.deleteTenant(id) {
                logger.notice("deleted demo tenant", metadata: ["tenant": .string(id.rawValue)])
            }
        }
        guard !HostAddress.isLoopback(configuration.host) else { return }
        let existing = Set(try await tenants.tenantIDs())
        let published = Dictionary(grouping: DemoAccount.seeded, by: \.tenant)
        for id in demoTenantIDs where existing.contains(id) {
            let keys = (published[id.rawValue] ?? []).map { UserRecord.emailKey($0.email) }
            let count = try await tenants.store(for: id).accountCount(emailKeys: keys)
            if count > 0 { throw StartupError.demoAccountsOnNetwork(host: configuration.host) }
        }
    }
}
