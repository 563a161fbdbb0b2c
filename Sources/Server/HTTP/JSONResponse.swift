import Foundation
import Hummingbird

/// Builds JSON responses with the API's coders.
enum JSONResponse {
    /// Cache policy of a response.
    enum Caching {
        /// Auth and user data: never stored.
        case noStore
        /// Course resources: may be stored, must be revalidated (`ETag`).
        case revalidate
        /// Public, briefly cacheable documents such as the JWKS.
        case publicFor(seconds: Int)

        var headerValue: String {
            switch self {
            case .noStore: "no-store"
            case .revalidate: "private, no-cache"
            case .publicFor(let seconds): "public, max-age=\(seconds)"
            }
        }
    }

    static func make(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, caching: Caching = .noStore,
        headers extra: HTTPFields = [:]
    ) throws -> Response {
        try make(encoded: ByteBuffer(bytes: APICoding.encode(value)), status: status, caching: caching, headers: extra)
    }

    /// A response whose JSON body is already encoded.
    static func make(
        encoded body: ByteBuffer, status: HTTPResponse.Status = .ok, caching: Caching = .noStore,
        headers extra: HTTPFields = [:]
    ) -> Response {
        var headers = extra
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = caching.headerValue
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    static func empty(status: HTTPResponse.Status = .noContent, headers extra: HTTPFields = [:]) -> Response {
        Response(status: status, headers: extra)
    }
}
