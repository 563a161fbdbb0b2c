#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
import NIOCore

/// ``MediaTransport`` over AsyncHTTPClient: the body arrives as it is read from the socket, one
/// buffer at a time. The default media transport on Linux.
///
/// Its connections go through the same checks as ``AsyncHTTPClientTransport``'s: chain and host
/// name against the system's roots (or the configuration's trust roots), then the host's pins when
/// it has any, before any request byte is sent. A refusal fails the fetch at once with
/// ``NetworkError/pinningFailed(host:)`` or ``NetworkError/untrustedCertificate(host:)``; it never
/// falls back to an unpinned connection, and a connection that cannot be established is not retried.
public struct AsyncHTTPClientMediaTransport: MediaTransport {
    /// The longest a whole download may take before it is abandoned (its partial file is kept).
    public var timeout: Duration
    /// The clients the downloads go through.
    private let clients: AsyncHTTPClientTransport

    /// A transport with clients of its own (ordinary TLS, no pins).
    public init(timeout: Duration = .seconds(24 * 3600)) {
        self.init(clients: .unpinned(), timeout: timeout)
    }

    /// A transport that validates against `pinning`'s trust roots and checks its pins, as
    /// ``AsyncHTTPClientTransport/init(pinning:http2:maximumBodySize:logger:)`` does.
    ///
    /// - Throws: When a trust root is not a DER certificate.
    public init(pinning: CertificatePinning, timeout: Duration = .seconds(24 * 3600)) throws {
        self.init(clients: try AsyncHTTPClientTransport(pinning: pinning), timeout: timeout)
    }

    /// A transport over `clients`' connections, pins and all: an ``EduGoClient``'s downloads share
    /// the clients of its API calls.
    public init(clients: AsyncHTTPClientTransport, timeout: Duration = .seconds(24 * 3600)) {
        self.timeout = timeout
        self.clients = clients
    }

    /// Streams the answer to `request`: `onHead` once, then `onChunk` with each buffer as it is read.
    ///
    /// - Throws: A ``NetworkError`` when the connection fails (a refused pin stays
    ///   ``NetworkError/pinningFailed(host:)``), or what `onHead` and `onChunk` throw, unchanged.
    public func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void,
        onChunk: (Data) async throws -> Void
    ) async throws {
        let (client, host) = clients.client(for: request.url)
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .GET
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        try await AsyncHTTPClientTransport.stream(
            outgoing, on: client, host: host, timeout: timeout, onHead: onHead, onChunk: onChunk)
    }
}
#endif
