import Foundation

/// What a transport that cannot hand on a response body as it arrives throws from
/// ``HTTPTransport/stream(_:onHead:onChunk:)``.
public struct StreamingUnsupported: Error, Equatable, Sendable {
    public init() {}
}

extension HTTPTransport {
    /// Throws ``StreamingUnsupported``: a transport streams only when it says how.
    public func stream(
        _ request: APIRequest, onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws {
        throw StreamingUnsupported()
    }
}
