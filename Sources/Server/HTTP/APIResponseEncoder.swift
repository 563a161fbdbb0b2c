import Foundation
import Hummingbird

/// The request context's response encoder: JSON in the API's conventions (snake_case keys,
/// RFC 3339 timestamps, ``APICoding``), not stored by caches unless the answer's
/// ``ResponseValidators`` say otherwise.
///
/// Any `ResponseEncodable` a handler returns is written by it.
public struct APIResponseEncoder: ResponseEncoder {
    /// Encodes `value` as a `200` JSON answer.
    ///
    /// - Throws: What the value's `encode(to:)` throws.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        ResponseValidators().apply(to: &headers)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try APICoding.encode(value))))
    }
}
