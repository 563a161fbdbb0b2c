/// The seeded demo logins, printed by `edugo-server` at start in dev mode.
public struct DemoAccount: Sendable, Equatable {
    public var tenant: String
    public var email: String
    public var password: String
    public var role: String
}

extension DemoAccount {
    /// Every account the `demo` and `acme` tenants are seeded with.
    public static var seeded: [DemoAccount] {
        func accounts(_ tenant: String, _ plan: Seeder.Plan) -> [DemoAccount] {
            SeedCatalog.accounts(domain: plan.domain, teachers: plan.teachers, students: plan.students).map {
                DemoAccount(tenant: tenant, email: $0.email, password: $0.password, role: $0.role.rawValue)
            }
        }
        return accounts("demo", Seeder.demo) + accounts("acme", Seeder.acme)
    }
}
