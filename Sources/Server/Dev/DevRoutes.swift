import EduGoServerStore
import Foundation
import Hummingbird

/// `/__dev/*`: only installed in dev mode, so outside it they are plain 404s.
struct DevRoutes {
    let deps: Dependencies
    let mailbox: DevMailbox

    func register(in routes: inout RouteTable) {
        routes.add(.get, "/__dev/mailbox", listMailbox)
        routes.add(.post, "/__dev/tenants", createTenant)
        routes.add(.get, "/__dev/tenants", listTenants)
        routes.add(.get, "/__dev/tenants/{id}/users", listTenantUsers)
    }

    /// A tenant as the dev console lists it.
    struct TenantSummary: Encodable {
        var id: String
        var name: String
        var userCount: Int
        /// Live event streams open in the tenant.
        var openStreams: Int
        var createdAt: Date
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

    /// `GET /__dev/tenants`: every tenant, newest first, with how many accounts and open live streams it has.
    @Sendable func listTenants(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let pagination = try Pagination(request, keyset: false)
        let (listings, total) = try await deps.tenants.tenantPage(offset: pagination.offset, limit: pagination.limit)
        var items: [TenantSummary] = []
        let streams = deps.changeHub.openStreams()
        for listing in listings {
            let users = try await deps.tenants.store(for: listing.id).userCount()
            items.append(TenantSummary(
                id: listing.id.rawValue, name: listing.name, userCount: users, openStreams: streams[listing.id] ?? 0,
                createdAt: listing.createdAt))
        }
        return try JSONResponse.make(Page(items: items, page: pagination.page, limit: pagination.limit, total: total))
    }

    /// `GET /__dev/tenants/{id}/users`: a tenant's accounts, newest first (no passwords: only the
    /// seeded ones are known, and `POST /__dev/tenants` answers them once).
    @Sendable func listTenantUsers(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let pagination = try Pagination(request, keyset: false)
        guard let tenant = TenantID(try request.pathParameter("id", context)) else { throw APIError.tenantNotFound }
        let (users, total) = try await deps.tenants.store(for: tenant)
            .userPage(offset: pagination.offset, limit: pagination.limit)
        return try JSONResponse.make(
            Page(items: users.map(UserResponse.init), page: pagination.page, limit: pagination.limit, total: total))
    }

    @Sendable func createTenant(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try await deps.rateLimiter.consume(
            .devTenants(context.clientAddress), deps.configuration.rateLimits.devTenantsPerAddress)
        let suffix = SecureToken.hash(SecureToken.generate()).prefix(12)
        guard let id = TenantID("t-\(suffix)") else { throw APIError.internalError }
        let seeder = Seeder(passwords: deps.passwords, now: deps.now)
        let box = AccountsBox()
        _ = try await deps.tenants.createTenant(id, name: "Test tenant \(suffix)") { store in
            let accounts = try await seeder.seed(store, plan: Seeder.devTenant)
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
