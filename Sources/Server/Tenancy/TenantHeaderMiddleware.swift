import Hummingbird

/// Reads `X-Tenant-ID` once per request into ``EduGoRequestContext/namedTenant``: the
/// authenticator checks it against the token's tenant, unauthenticated routes open the tenant it
/// names, and the fault rules and the access log attribute the request by it.
struct TenantHeaderMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.namedTenant = NamedTenant(request.headers)
        return try await next(request, context)
    }
}
