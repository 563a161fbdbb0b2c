#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension AsyncHTTPClientTransport {
    /// Sends `request` on the client for its host (a pinned one when the host has pins) and hands
    /// each buffer of the body on as it is read from the socket.
    ///
    /// `request.timeout` bounds the whole exchange, body included.
    ///
    /// - Throws: A ``NetworkError`` when the connection fails (a refused pin stays
    ///   ``NetworkError/pinningFailed(host:)``), or what `onHead` and `onChunk` throw, unchanged.
    public func stream(
        _ request: APIRequest, onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws {
        let (client, host) = client(for: request.url)
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        try await Self.stream(outgoing, on: client, host: host, timeout: request.timeout, onHead: onHead, onChunk: onChunk)
    }

    /// Executes `request` on `client` and hands the body on buffer by buffer as it is read.
    ///
    /// The transport's failures are classified as the API's are (a refused pin stays a refused
    /// pin); what `onHead` and `onChunk` throw passes unchanged.
    static func stream(
        _ request: HTTPClientRequest, on client: HTTPClient, host: String, timeout: Duration,
        onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .nanoseconds(timeout.wholeNanoseconds))
        } catch {
            throw classify(error, host: host)
        }
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        try await onHead(MediaResponseHead(statusCode: Int(response.status.code), headers: headers))
        var body = response.body.makeAsyncIterator()
        while true {
            let buffer: ByteBuffer?
            do {
                buffer = try await body.next()
            } catch {
                throw classify(error, host: host)
            }
            guard let buffer else { return }
            try await onChunk(Data(buffer.readableBytesView))
        }
    }
}
#endif
