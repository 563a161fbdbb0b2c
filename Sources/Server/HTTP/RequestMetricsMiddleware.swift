import Hummingbird

/// Counts each request and its latency by method, route and status, and each idempotent replay
/// (``ServerMetrics``).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let routes: RouteLabel
    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        metrics.recordRequest(
            method: request.method.rawValue, route: routes.label(for: context), status: Int(response.status.code),
            duration: ContinuousClock.now - started)
        if response.headers[.idempotentReplayed] == "true" { metrics.recordIdempotentReplay() }
        return response
    }
}
