import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Undoes the generated client's percent-encoding of `If-Match`, `If-None-Match`, `If-Range` and
/// `Range` (`bytes=0-99` would leave as `bytes%3D0-99`, which names no range).
///
/// swift-openapi-runtime serialises header parameters like URI components, so the entity tag
/// `"3"` leaves the client as `%223%22` (apple/swift-openapi-generator#529, #857; OpenAPI 3.1.1
/// clarified that header values are not percent-encoded). RFC 9110 entity tags are quoted, so the
/// request would name no version at all. This middleware restores the tag the caller passed.
struct EntityTagHeaderMiddleware: ClientMiddleware {
    private static let names: [HTTPField.Name] = [.ifMatch, .ifNoneMatch, .ifRange, .range]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in Self.names {
            if let encoded = request.headerFields[name], let decoded = encoded.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        return try await next(request, body, baseURL)
    }
}
