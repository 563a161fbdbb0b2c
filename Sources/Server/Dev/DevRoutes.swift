import Foundation
import Hummingbird

/// `/__dev/*`: only installed in dev mode, so outside it they are plain 404s.
struct DevRoutes {
    let deps: Dependencies
    let mailbox: DevMailbox

    func register(in routes: inout RouteTable) {
        routes.add(.get, "/__dev/mailbox", listMailbox)
        routes.add(.post, "/__dev/tenants", createTenant)
    }

    struct MailboxResponse: Encodable { var items: [Mail] }

    struct CreatedTenant: Encodable {
        struct Account: Encodable { var email: String; var password: String; var role: String }
        var tenantId: String
        var accounts: [Account]
    }

    @Sendable func listMailbox(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let tenant = try await deps.authenticator.namedTenant(request)
        let email = request.uri.queryParameters["email"].map(String.init)
        let mails = await mailbox.messages(tenant: tenant.tenantID, to: email)
        return try JSONResponse.make(MailboxResponse(items: mails))
    }

    @Sendable func createTenant(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try await deps.rateLimiter.consume(
            .devTenants(context.clientAddress), deps.configuration.rateLimits.devTenantsPerAddress)
        let suffix = SecureToken.hash(SecureToken.generate()).prefix(12)
        guard let id = TenantID("t-\(suffix)") else { throw APIError.internalError }
        let seeder = Seeder(passwords: deps.passwords, now: deps.now)
        let box = AccountsBox()
        _ = try await deps.tenants.createTenant(id, name: "Test tenant \(suffix)") { database in
            let accounts = try await seeder.seed(database, plan: Seeder.devTenant)
            await box.set(accounts)
        }
        let accounts = await box.accounts.map {
            CreatedTenant.Account(email: $0.email, password: $0.password, role: $0.role.rawValue)
        }
        return try JSONResponse.make(CreatedTenant(tenantId: id.rawValue, accounts: accounts), status: .created)
    }
}

/// Carries the seeded accounts out of the registry's seeding closure.
private actor AccountsBox {
    var accounts: [SeedCatalog.Account] = []
    func set(_ accounts: [SeedCatalog.Account]) { self.accounts = accounts }
}
