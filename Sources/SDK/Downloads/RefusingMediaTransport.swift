import Foundation

/// A media transport that fails every download with one error: what a pinning configuration that
/// cannot be honoured turns into.
struct RefusingMediaTransport: MediaTransport {
    let error: NetworkError

    func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void,
        onChunk: (Data) async throws -> Void
    ) async throws {
        throw error
    }
}
