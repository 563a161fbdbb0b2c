import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Changes a generated request on its way to the transport, for the refusals a well-behaved
/// generated client cannot provoke: the wrong media type (415) or an oversized body (413).
struct RequestTamperingMiddleware: ClientMiddleware {
    enum Change: Sendable {
        /// Sends the body with this `Content-Type` instead of `application/json`.
        case contentType(String)
        /// Replaces the body with a JSON object of exactly this many bytes.
        case jsonBody(bytes: Int)
    }

    let change: Change

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        var body = body
        switch change {
        case .contentType(let value):
            request.headerFields[.contentType] = value
        case .jsonBody(let bytes):
            let prefix = Array(#"{"padding":""#.utf8)
            let suffix = Array(#""}"#.utf8)
            let padding = [UInt8](repeating: UInt8(ascii: "x"), count: max(0, bytes - prefix.count - suffix.count))
            let bytes = prefix + padding + suffix
            body = HTTPBody(bytes)
            request.headerFields[.contentType] = "application/json"
            request.headerFields[.contentLength] = String(bytes.count)
        }
        return try await next(request, body, baseURL)
    }
}
