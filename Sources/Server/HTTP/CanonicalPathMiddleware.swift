import Hummingbird

/// Refuses a path that is not in canonical form (`400 non_canonical_path`, ``RequestPath``).
///
/// Runs before every path-based check inside it (dev perimeter, fault exemption, body limits),
/// so each of them, and the access log, sees the path the router matches.
struct CanonicalPathMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard RequestPath.isCanonical(request.uri.path) else { throw APIError.nonCanonicalPath }
        return try await next(request, context)
    }
}
