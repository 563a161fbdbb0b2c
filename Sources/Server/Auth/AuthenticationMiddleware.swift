import EduGoServerStore
import Hummingbird
import HummingbirdAuth

/// Authenticates every request to a route that requires it, once, before the handler runs:
/// HummingbirdAuth's authenticator middleware, which puts what ``authenticate(request:context:)``
/// returns into the request context (``EduGoRequestContext`` is an `AuthRequestContext`).
///
/// It verifies the bearer token, checks the session is live and loads the caller's row
/// (``Authenticator/authenticate(_:named:)``), and throws for a request that fails any of that, so
/// a route behind it never runs unauthenticated; handlers read the caller with
/// ``EduGoRequestContext/requireIdentity()``.
struct AuthenticationMiddleware: AuthenticatorMiddleware {
    typealias Context = EduGoRequestContext

    let authenticator: Authenticator

    func authenticate(request: Request, context: Context) async throws -> Identity? {
        let identity = try await authenticator.authenticate(request, named: context.namedTenant)
        context.notes?.recordCaller(identity)
        return identity
    }
}

extension EduGoRequestContext {
    /// The caller ``AuthenticationMiddleware`` authenticated.
    ///
    /// - Throws: `401 unauthorized` as problem+json when the route was not installed behind the
    ///   middleware (so a route registered without authentication can never run as somebody).
    func requireIdentity() throws -> Identity {
        guard let identity else { throw APIError.unauthorized("Authentication is required.", invalidToken: false) }
        return identity
    }
}
