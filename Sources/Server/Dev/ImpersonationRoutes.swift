import EduGoServerStore
import Foundation
import Hummingbird

/// `POST /__dev/tenants/{id}/users/{userId}/token`: an access token for calling the API as one
/// of the tenant's users, minted by the dev backend (dev mode only).
///
/// The token carries the actor claim (``AccessClaims/act``) and stands for no session: it signs
/// nobody out (no session is started, so no session limit is reached), it cannot be refreshed,
/// it lives at most ``lifetime``, and the request journal marks each request made with it
/// `impersonated`. Only a dev-mode server accepts it (``Authenticator``), so a token saved from a
/// dev run is refused by the same data directory served outside dev mode. The user's current
/// role applies to every request, as for a signed-in caller.
struct ImpersonationRoutes: RouteModule {
    let deps: Dependencies

    /// The longest an impersonation token lives (shorter when access tokens are).
    static let lifetime: Duration = .seconds(300)

    struct Impersonation: Encodable {
        var accessToken: String
        var tokenType = "Bearer"
        var expiresIn: Int
        var user: UserResponse
    }

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.post("/__dev/tenants/{id}/users/{userId}/token", use: mint)
        return routes
    }

    /// `200` with the token and the user it acts as; `404 tenant_not_found`, or `404 not_found`
    /// for a user the tenant does not hold.
    @Sendable func mint(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        guard let tenantID = TenantID(try request.pathParameter("id", context)) else { throw APIError.tenantNotFound }
        let store = try await deps.tenants.store(for: tenantID)
        guard let user = try await store.user(actedAs: try request.pathParameter("userId", context)) else {
            throw APIError.notFound("user")
        }
        let lifetime = min(deps.tokens.lifetime, Self.lifetime)
        let token = try await deps.tokens.issueImpersonation(
            userID: user.id, tenantID: tenantID, role: user.role, lifetime: lifetime)
        return try JSONResponse.make(
            Impersonation(accessToken: token, expiresIn: Int(lifetime.timeInterval), user: UserResponse(user)))
    }
}
