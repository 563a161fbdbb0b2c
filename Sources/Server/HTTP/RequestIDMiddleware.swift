import EduGoServerStore
import HTTPTypes
import Hummingbird

/// Gives each request its id: the client's `X-Request-ID` when well-formed, otherwise a new one.
///
/// The outermost middleware, so every other one sees the id, and every response, errors and 404s
/// included, echoes it. The log lines a request writes name it themselves (the access log's entry,
/// the unhandled-error line): setting it as the logger's metadata cost `/health` a tenth of its
/// instructions, since swift-log's stream handler formats all its metadata again on every set.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.requestID = Self.requestID(from: request)
        var response = try await next(request, context)
        // Nothing inside sets this field, so it is appended without looking for one first.
        response.headers.append(HTTPField(name: .xRequestID, value: context.requestID))
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
