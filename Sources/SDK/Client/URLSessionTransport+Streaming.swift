#if !canImport(FoundationNetworking)
import Foundation

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
        let (bytes, head) = try await session.streamedBytes(for: outgoing, pinning: pinning)
        try await onHead(head)
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
}
#endif
