import EduGoServerStore
import Hummingbird

/// Gives each request its id: the client's `X-Request-ID` when well-formed, otherwise a new one.
///
/// The outermost middleware, so every other one (and the logger's `request_id` metadata) sees the
/// id, and every response, errors and 404s included, echoes it.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.requestID = Self.requestID(from: request)
        context.logger[metadataKey: "request_id"] = .string(context.requestID)
        var response = try await next(request, context)
        response.headers[.xRequestID] = context.requestID
        return response
    }

    /// Echoes a well-formed client request id, otherwise generates one.
    static func requestID(from request: Request) -> String {
        if let supplied = request.headers[.xRequestID], (1...128).contains(supplied.count),
            supplied.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        {
            return supplied
        }
        return RequestIDSource.shared.next()
    }
}
