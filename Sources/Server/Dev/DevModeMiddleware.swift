import Hummingbird

/// Dev mode's two middlewares, ``DevHostGuard`` then ``FaultMiddleware``, called one inside the
/// other as a single router layer: each layer the router chains costs every request a responder
/// hop and a copy of its context, `/health` included.
struct DevModeMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let hostGuard: DevHostGuard
    let faults: FaultMiddleware

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await hostGuard.handle(request, context: context) { request, context in
            try await faults.handle(request, context: context, next: next)
        }
    }
}
