import Foundation
import Hummingbird

/// JSON answers built as `Response`s, for the handlers that return one (the dev routes) and for
/// bodies encoded ahead of time (``CachedPage``, `/health`). Their headers come from
/// ``ResponseValidators``, as those of every ``APIResponse``.
enum JSONResponse {
    static func make(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, caching: CachePolicy = .noStore
    ) throws -> Response {
        try make(encoded: ByteBuffer(bytes: APICoding.encode(value)), status: status, caching: caching)
    }

    /// A response whose JSON body is already encoded.
    static func make(
        encoded body: ByteBuffer, status: HTTPResponse.Status = .ok, caching: CachePolicy = .noStore
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        ResponseValidators(caching: caching).apply(to: &headers)
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    static func empty(status: HTTPResponse.Status = .noContent) -> Response {
        Response(status: status)
    }
}
