import EduGoServerStore
import Foundation
import Hummingbird
import Logging
import NIOHTTP1

/// Turns every error thrown inside it into an RFC 9457 problem+json answer with a stable `code`.
///
/// An ``APIError`` answers as it is, a `StoreError` as `APIError.init(_:)` maps it; the client errors Hummingbird and the HTTP parser raise get
/// their documented codes; anything else is logged by type only and answers an opaque
/// `500 internal_error`.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    /// The limit a `413 payload_too_large` from Hummingbird names.
    let maxBodySize: Int
    /// Told of each problem answered (the metrics count rate-limit refusals).
    var onProblem: @Sendable (APIError) -> Void = { _ in }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = self.apiError(for: error, context: context)
            onProblem(apiError)
            return Self.problemResponse(apiError, path: request.uri.path, requestID: context.requestID)
        }
    }

    private func apiError(for error: any Error, context: Context) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as StoreError:
            return APIError(error)
        case let error as HTTPError where error.status == .notFound:
            return .notFound()
        // A body the HTTP/1 parser cannot read (an invalid chunk size line, say) surfaces where a
        // handler reads the body. The parser stops at its error, so the connection ends after
        // this answer: Hummingbird finds the body stream finished and closes it.
        case is HTTPParserError:
            return .malformedRequest
        // Not only HTTPError: a streamed body that outgrows `collectBody(upTo:)` throws NIO's
        // NIOTooManyBytesError, which Hummingbird makes an HTTPResponseError with status 413.
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            return .payloadTooLarge(limit: maxBodySize)
        case let error as any HTTPResponseError where error.status.code < 500:
            return APIError(error.status, code: Self.code(for: error.status), detail: error.status.reasonPhrase)
        default:
            context.logger.error(
                "unhandled error",
                metadata: ["error_type": .string(String(describing: type(of: error))), "request_id": .string(context.requestID)])
            return .internalError
        }
    }

    /// Documented codes for the client errors Hummingbird itself may raise.
    static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .contentTooLarge: "payload_too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        default: "bad_request"
        }
    }

    static func problemResponse(_ error: APIError, path: String, requestID: String) -> Response {
        let problem = ProblemDetails(error: error, instance: path, requestID: requestID)
        let data = (try? APICoding.encoder.encode(problem)) ?? Data(#"{"code":"internal_error"}"#.utf8)
        var headers = error.headers
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIError {
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "payload_too_large", detail: "The request body exceeds \(limit) bytes.")
    }
}
