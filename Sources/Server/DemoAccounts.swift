/// The seeded demo logins, printed by `edugo-server` at start in dev mode.
public struct DemoAccount: Sendable, Equatable {
    public var tenant: String
    public var email: String
    public var password: String
    public var role: String
}

extension DemoAccount {
    /// Every account the `demo` and `acme` tenants are seeded with (the built-in demo seed file).
    public static var seeded: [DemoAccount] {
        let demo = (try? BundledSeeds.demo) ?? SeedDescription(tenants: [])
        return demo.tenants.flatMap { tenant in
            tenant.users.map {
                DemoAccount(tenant: tenant.id?.rawValue ?? "", email: $0.email, password: $0.password, role: $0.role.rawValue)
            }
        }
    }
}
