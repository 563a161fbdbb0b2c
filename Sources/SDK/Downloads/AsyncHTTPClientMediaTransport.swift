#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
import NIOCore

/// ``MediaTransport`` over AsyncHTTPClient: the body arrives as it is read from the socket, one
/// buffer at a time.
///
/// Made with an enabled ``CertificatePinning`` (``init(pinning:timeout:)``, which
/// ``APIConfiguration/makeDefaultMediaTransport()`` uses when the configuration pins), its
/// connections go through the same checks as ``AsyncHTTPClientTransport``'s: chain and host name
/// against the configuration's trust roots, then the host's pins, before any request byte is sent.
/// A refusal fails the fetch with ``NetworkError/pinningFailed(host:)`` or
/// ``NetworkError/untrustedCertificate(host:)``; it never falls back to an unpinned connection.
/// Without pinning it uses AsyncHTTPClient's shared client.
public struct AsyncHTTPClientMediaTransport: MediaTransport {
    /// The longest a whole download may take before it is abandoned (its partial file is kept).
    public var timeout: Duration
    /// The pinned clients, when pinning is enabled.
    private let pinned: AsyncHTTPClientTransport?

    /// A transport over AsyncHTTPClient's shared client (ordinary TLS, no pins).
    public init(timeout: Duration = .seconds(24 * 3600)) {
        self.timeout = timeout
        self.pinned = nil
    }

    /// A transport that validates against `pinning`'s trust roots and checks its pins, as
    /// ``AsyncHTTPClientTransport/init(pinning:http2:maximumBodySize:logger:)`` does.
    ///
    /// - Throws: When a trust root is not a DER certificate.
    public init(pinning: CertificatePinning, timeout: Duration = .seconds(24 * 3600)) throws {
        self.timeout = timeout
        self.pinned = pinning.isEnabled ? try AsyncHTTPClientTransport(pinning: pinning) : nil
    }

    /// Streams the answer to `request`: `onHead` once, then `onChunk` with each buffer as it is read.
    ///
    /// - Throws: A ``NetworkError`` when the connection fails (a refused pin stays
    ///   ``NetworkError/pinningFailed(host:)``), or what `onHead` and `onChunk` throw, unchanged.
    public func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void,
        onChunk: (Data) async throws -> Void
    ) async throws {
        let (client, host) = pinned?.client(for: request.url) ?? (HTTPClient.shared, request.url.host ?? "")
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .GET
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        try await AsyncHTTPClientTransport.stream(
            outgoing, on: client, host: host, timeout: timeout, onHead: onHead, onChunk: onChunk)
    }
}
#endif
