import EduGoServerStore
import Foundation
import Hummingbird

/// Turns `Authorization: Bearer …` into an ``Identity``.
///
/// The tenant comes from the verified `tid` claim; a disagreeing `X-Tenant-ID` is refused. The
/// session must still be live and the user must still exist, so logout, family revocation and
/// user deletion take effect at once, and role changes apply to the next request.
///
/// A token the dev backend minted to act as a user (``AccessClaims/act``) stands for no session:
/// only its user must exist, and only a dev-mode server (`acceptsImpersonation`) takes it.
struct Authenticator: Sendable {
    let tokens: TokenService
    let tenants: TenantRegistry
    /// Dev mode: tokens minted by `POST /__dev/tenants/{id}/users/{userId}/token` are accepted.
    let acceptsImpersonation: Bool

    /// - Parameter named: What the request's `X-Tenant-ID` names (``TenantHeaderMiddleware``).
    func authenticate(_ request: Request, named: NamedTenant) async throws -> Identity {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("Authentication is required.", invalidToken: false)
        }
        guard let token = BearerToken.from(header) else {
            throw APIError.unauthorized("Use a Bearer token.", invalidToken: true)
        }
        let claims = try await tokens.verify(String(token))
        guard let tenantID = TenantID(claims.tid) else {
            throw APIError.unauthorized("The access token is not valid.", invalidToken: true)
        }
        if !named.agrees(with: tenantID) {
            throw APIError(
                .forbidden, code: "tenant_mismatch", detail: "X-Tenant-ID does not match the token's tenant.")
        }
        let store: TenantStore
        do {
            store = try await tenants.store(for: tenantID)
        } catch let error as APIError where error.code == "tenant_not_found" {
            throw APIError.unauthorized("The access token is not valid.", invalidToken: true)
        }
        if claims.act != nil {
            guard acceptsImpersonation, let user = try await store.user(actedAs: claims.sub.value) else {
                throw APIError.unauthorized("The access token is not valid.", invalidToken: true)
            }
            var identity = Identity(store: store, user: user, sessionID: claims.sid, accessTokenExpiresAt: claims.exp.value)
            identity.impersonated = true
            return identity
        }
        guard let user = try await store.user(inLiveSession: claims.sid, userID: claims.sub.value) else {
            throw APIError.unauthorized("The session has ended. Sign in again.", invalidToken: true)
        }
        return Identity(store: store, user: user, sessionID: claims.sid, accessTokenExpiresAt: claims.exp.value)
    }

    /// The tenant named by `X-Tenant-ID` on an unauthenticated call.
    /// - Throws: `400 validation_failed` without a well-formed header, `404` for an unknown tenant.
    func namedTenant(_ context: EduGoRequestContext) async throws -> TenantStore {
        try await tenants.store(for: context.namedTenant.required())
    }
}
