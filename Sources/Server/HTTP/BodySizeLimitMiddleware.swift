import Hummingbird

/// Refuses a request whose `Content-Length` exceeds the server's body limit (`413 payload_too_large`)
/// before anything reads it.
struct BodySizeLimitMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let maxBodySize: Int
    /// Paths whose request body is a streamed file with its own limit (lesson media), exempt from ``maxBodySize``.
    var hasOwnBodyLimit: @Sendable (String) -> Bool = { _ in false }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodySize,
            !hasOwnBodyLimit(request.uri.path)
        {
            throw APIError.payloadTooLarge(limit: maxBodySize)
        }
        return try await next(request, context)
    }
}
