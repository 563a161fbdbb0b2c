#if !canImport(FoundationNetworking)
import Foundation
import Logging

extension URLSessionTransport {
    /// Sends `request` and hands the body on line by line as it arrives (Apple platforms, where
    /// `URLSession` offers a byte stream), checking the server's trust and pins first when the
    /// transport has a ``CertificatePinning``.
    ///
    /// - Throws: `URLError`, a ``NetworkError`` when the server's certificate or pin was refused,
    ///   or what `onHead` and `onChunk` throw.
    public func stream(
        _ request: APIRequest, onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws {
        var outgoing = URLRequest(url: request.url)
        outgoing.httpMethod = request.method.rawValue
        outgoing.timeoutInterval = request.timeout.timeInterval
        for (name, value) in request.headers { outgoing.setValue(value, forHTTPHeaderField: name) }
        outgoing.httpBody = request.body
        let (bytes, response) = try await streamedBytes(for: outgoing)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        try await onHead(MediaResponseHead(statusCode: http.statusCode, headers: headers))
        var line = Data()
        for try await byte in bytes {
            line.append(byte)
            if byte == UInt8(ascii: "\n") {
                try await onChunk(line)
                line.removeAll(keepingCapacity: true)
            }
        }
        if !line.isEmpty { try await onChunk(line) }
    }

    private func streamedBytes(for request: URLRequest) async throws -> (URLSession.AsyncBytes, URLResponse) {
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
