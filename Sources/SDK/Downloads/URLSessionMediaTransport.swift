#if !canImport(FoundationNetworking)
import Foundation
import Logging

/// ``MediaTransport`` over `URLSession`'s byte stream (Apple platforms), handed on in 256 KiB chunks.
///
/// Made with a ``CertificatePinning`` (``init(configuration:pinning:)``), each download's task
/// delegate checks the server's trust and pins as ``URLSessionTransport``'s does; a refusal
/// cancels the connection before any request byte is sent and fails the fetch with
/// ``NetworkError/pinningFailed(host:)`` or ``NetworkError/untrustedCertificate(host:)``.
public struct URLSessionMediaTransport: MediaTransport {
    private let session: URLSession
    private var pinning: CertificatePinning = .disabled

    /// Creates a transport over its own `URLSession` (no cookies, no URL cache) that checks no pins.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        self.session = URLSession(configuration: configuration)
    }

    #if canImport(Security)
    /// A transport whose downloads are checked against `pinning` (trust roots, then pins).
    public init(configuration: URLSessionConfiguration = .ephemeral, pinning: CertificatePinning) {
        self.init(configuration: configuration)
        self.pinning = pinning
    }
    #endif

    /// Streams the answer to `request`: `onHead` once, then `onChunk` with each 256 KiB of the body
    /// (the last chunk may be shorter).
    ///
    /// - Throws: `URLError`, a ``NetworkError`` when the server's certificate or pin was refused, or
    ///   what `onHead` and `onChunk` throw.
    public func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void,
        onChunk: (Data) async throws -> Void
    ) async throws {
        var outgoing = URLRequest(url: request.url)
        for (name, value) in request.headers { outgoing.setValue(value, forHTTPHeaderField: name) }
        let (bytes, head) = try await session.streamedBytes(for: outgoing, pinning: pinning)
        try await onHead(head)
        var chunk = Data()
        chunk.reserveCapacity(256 << 10)
        for try await byte in bytes {
            chunk.append(byte)
            if chunk.count == 256 << 10 {
                try await onChunk(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try await onChunk(chunk) }
    }
}
#endif
