#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
import NIOCore

/// ``MediaTransport`` over AsyncHTTPClient's shared client: the body arrives as it is read from
/// the socket, one buffer at a time. (Certificate pinning is not applied to media downloads.)
public struct AsyncHTTPClientMediaTransport: MediaTransport {
    /// The longest a whole download may take before it is abandoned (its partial file is kept).
    public var timeout: Duration

    public init(timeout: Duration = .seconds(24 * 3600)) {
        self.timeout = timeout
    }

    public func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void,
        onChunk: (Data) async throws -> Void
    ) async throws {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .GET
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        let (seconds, attoseconds) = timeout.components
        let response = try await HTTPClient.shared.execute(
            outgoing, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        try await onHead(MediaResponseHead(statusCode: Int(response.status.code), headers: headers))
        for try await buffer in response.body {
            try await onChunk(Data(buffer.readableBytesView))
        }
    }
}
#endif
