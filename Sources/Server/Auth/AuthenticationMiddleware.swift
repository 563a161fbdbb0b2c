import EduGoServerStore
import Hummingbird

/// Authenticates every request to a route that requires it, once, before the handler runs.
///
/// It verifies the bearer token, checks the session is live and loads the caller's row
/// (``Authenticator/authenticate(_:)``), then hands the ``Identity`` to the handler through the
/// request context; handlers read it with ``EduGoRequestContext/requireIdentity()``.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let authenticator: Authenticator

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let identity = try await authenticator.authenticate(request, named: context.namedTenant)
        context.identity = identity
        context.notes?.recordCaller(identity)
        return try await next(request, context)
    }
}

extension EduGoRequestContext {
    /// The caller ``AuthenticationMiddleware`` authenticated.
    ///
    /// - Throws: `401 unauthorized` when the route was not installed behind the middleware (so a
    ///   route registered without authentication can never run as somebody).
    func requireIdentity() throws -> Identity {
        guard let identity else { throw APIError.unauthorized("Authentication is required.", invalidToken: false) }
        return identity
    }
}
