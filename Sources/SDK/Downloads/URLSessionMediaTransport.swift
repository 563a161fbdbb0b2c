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
        let (bytes, response) = try await bytes(for: outgoing)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        try await onHead(MediaResponseHead(statusCode: http.statusCode, headers: headers))
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

    private func bytes(for request: URLRequest) async throws -> (URLSession.AsyncBytes, URLResponse) {
        #if canImport(Security)
        if pinning.isEnabled {
            let delegate = PinningTaskDelegate(pinning: pinning, logger: Logger(label: "edugo.sdk.tls"))
            do {
                return try await session.bytes(for: request, delegate: delegate)
            } catch {
                throw delegate.refusal ?? error
            }
        }
        #endif
        return try await session.bytes(for: request)
    }
}
#endif
