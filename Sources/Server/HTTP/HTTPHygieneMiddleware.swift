import Hummingbird

/// The hygiene middlewares called one inside the other in ``HTTPHygiene``'s order, directly
/// rather than through the router's chain of middleware responders.
struct HTTPHygieneMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let requestID = RequestIDMiddleware()
    let accessLog: AccessLogMiddleware
    let metrics: RequestMetricsMiddleware
    let securityHeaders: SecurityHeadersMiddleware
    let problems: ProblemMiddleware
    let canonicalPath = CanonicalPathMiddleware()
    let bodySize: BodySizeLimitMiddleware

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await requestID.handle(request, context: context) { request, context in
            try await accessLog.handle(request, context: context) { request, context in
                try await metrics.handle(request, context: context) { request, context in
                    try await securityHeaders.handle(request, context: context) { request, context in
                        try await problems.handle(request, context: context) { request, context in
                            try await canonicalPath.handle(request, context: context) { request, context in
                                try await bodySize.handle(request, context: context, next: next)
                            }
                        }
                    }
                }
            }
        }
    }
}
