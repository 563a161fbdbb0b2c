import Hummingbird

/// Counts each request and its latency by method, route and status (``ServerMetrics``).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    /// Where the counts go; without it, requests pass uncounted.
    let metrics: ServerMetrics?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let metrics else { return try await next(request, context) }
        let started = ContinuousClock.now
        let response = try await next(request, context)
        metrics.recordRequest(
            method: request.method.rawValue, route: context.routeLabel, status: Int(response.status.code),
            duration: ContinuousClock.now - started)
        return response
    }
}
