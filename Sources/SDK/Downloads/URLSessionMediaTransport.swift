#if !canImport(FoundationNetworking)
import Foundation

/// ``MediaTransport`` over `URLSession`'s byte stream (Apple platforms), handed on in 256 KiB chunks.
public struct URLSessionMediaTransport: MediaTransport {
    private let session: URLSession

    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        self.session = URLSession(configuration: configuration)
    }

    public func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void,
        onChunk: (Data) async throws -> Void
    ) async throws {
        var outgoing = URLRequest(url: request.url)
        for (name, value) in request.headers { outgoing.setValue(value, forHTTPHeaderField: name) }
        let (bytes, response) = try await session.bytes(for: outgoing)
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
}
#endif
