import EduGoServerStore
import Foundation
import Hummingbird

/// `/__dev/*`: only installed in dev mode, so outside it they are plain 404s.
struct DevRoutes: RouteModule {
    let deps: Dependencies
    let mailbox: DevMailbox

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/__dev/mailbox", use: listMailbox)
        routes.post("/__dev/tenants", use: createTenant)
        routes.get("/__dev/tenants", use: listTenants)
        routes.get("/__dev/tenants/{id}/users", use: listTenantUsers)
        return routes
    }

    /// A tenant as the dev console lists it.
    struct TenantSummary: Encodable {
        var id: String
        var name: String
        var userCount: Int
        /// Live event streams open in the tenant.
        var openStreams: Int
        var createdAt: Date
        /// The id of the tenant's data history: a new one after every restore or import.
        var timeline: String
        /// When the timeline started (the tenant's creation, its last restore or import).
        var timelineStartedAt: Date?
    }

    struct MailboxResponse: Encodable { var items: [Mail] }

    struct CreatedTenant: Encodable {
        struct Account: Encodable { var email: String; var password: String; var role: String }
        var tenantId: String
        var accounts: [Account]
    }

    @Sendable func listMailbox(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let tenant = try await deps.authenticator.namedTenant(context)
        let email = request.uri.queryParameters["email"].map(String.init)
        let mails = await mailbox.messages(tenant: tenant.tenantID, to: email)
        return try JSONResponse.make(MailboxResponse(items: mails))
    }

    /// `GET /__dev/tenants`: every tenant, newest first, with how many accounts and open live
    /// streams it has, and its timeline (which a restore or an import changes).
    @Sendable func listTenants(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let pagination = try Pagination(request, keyset: false)
        let (listings, total) = try await deps.tenants.tenantPage(offset: pagination.offset, limit: pagination.limit)
        var items: [TenantSummary] = []
        let streams = deps.changeHub.openStreams()
        for listing in listings {
            let store = try await deps.tenants.store(for: listing.id)
            let users = try await store.userCount()
            let timeline = try await store.timeline()
            items.append(TenantSummary(
                id: listing.id.rawValue, name: listing.name, userCount: users, openStreams: streams[listing.id] ?? 0,
                createdAt: listing.createdAt, timeline: timeline.id, timelineStartedAt: timeline.startedAt))
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

    /// `POST /__dev/tenants`: a fresh tenant seeded from the body's description (one tenant of
    /// a seed file, without its `id`), or from the built-in test fixture when there is no body.
    ///
    /// The description is validated whole before anything is created: a bad one answers
    /// `422 validation_failed` naming each problem by its path (`courses[3].lessons[0].title`).
    @Sendable func createTenant(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try await deps.rateLimiter.consume(
            .devTenants(context.clientAddress), deps.configuration.rateLimits.devTenantsPerAddress)
        let (fixture, fromBody) = try await Self.fixture(of: request, limit: deps.bodyLimit)
        let suffix = SecureToken.hash(SecureToken.generate()).prefix(12)
        guard let id = TenantID("t-\(suffix)") else { throw APIError.internalError }
        let seeder = Seeder(passwords: deps.passwords, now: deps.now, passwordsFromRequest: fromBody)
        _ = try await deps.tenants.createTenant(id, name: fixture.name ?? "Test tenant \(suffix)") { store in
            try await seeder.seed(fixture, into: store, tenantID: id)
        }
        let accounts = fixture.users.map {
            CreatedTenant.Account(email: $0.email, password: $0.password, role: $0.role.rawValue)
        }
        return try JSONResponse.make(CreatedTenant(tenantId: id.rawValue, accounts: accounts), status: .created)
    }

    /// The tenant a `POST /__dev/tenants` describes: its JSON body, or the built-in fixture when
    /// it sends no body (`Content-Length: 0`, or neither a length nor a `Transfer-Encoding`),
    /// whatever its `Content-Type`: generated clients send `application/json` on every call.
    /// `fromBody` says which.
    static func fixture(of request: Request, limit: Int) async throws -> (tenant: SeedDescription.Tenant, fromBody: Bool) {
        let length = request.headers[.contentLength].flatMap(Int.init)
        if length == 0 || (length == nil && request.headers[.transferEncoding] == nil) {
            return (try BundledSeeds.testTenant, false)
        }
        let (_, object) = try await RequestBody.readObject(from: request, limit: limit)
        do {
            return (try SeedDescription.Tenant.parse(body: object), true)
        } catch let invalid as SeedValidationError {
            throw invalid.apiError
        }
    }
}
