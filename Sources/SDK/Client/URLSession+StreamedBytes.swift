#if !canImport(FoundationNetworking)
import Foundation
import Logging

extension URLSession {
    /// The answer to `request` as a byte stream and its head (status and header fields), after the
    /// server's trust and pins were checked when `pinning` is enabled: what the streaming
    /// transports on Apple platforms share.
    ///
    /// - Throws: `URLError`, or a ``NetworkError`` when the server's certificate or pin was refused.
    func streamedBytes(
        for request: URLRequest, pinning: CertificatePinning
    ) async throws -> (bytes: AsyncBytes, head: MediaResponseHead) {
        let (bytes, response) = try await checkedBytes(for: request, pinning: pinning)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return (bytes, MediaResponseHead(statusCode: http.statusCode, headers: headers))
    }

    private func checkedBytes(for request: URLRequest, pinning: CertificatePinning) async throws -> (AsyncBytes, URLResponse) {
        #if canImport(Security)
        if pinning.isEnabled {
            let delegate = PinningTaskDelegate(pinning: pinning, logger: Logger(label: "edugo.sdk.tls"))
            do {
                return try await bytes(for: request, delegate: delegate)
            } catch {
                throw delegate.refusal ?? error
            }
        }
        #endif
        return try await bytes(for: request)
    }
}
#endif
