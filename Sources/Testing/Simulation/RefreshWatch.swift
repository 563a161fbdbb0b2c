import EduGoGuarded
import EduGoSDK
import Foundation

/// A device's network as the single-flight oracle sees it: every request goes to the platform's
/// transport unchanged, and a token refresh (`POST /v1/auth/refresh`) sent while another of the
/// same client is still waiting for its answer is counted. One client refreshes one session at a
/// time however many of its requests meet an expired token (they join the refresh in flight), so
/// any such overlap is a second exchange of a token the first is already spending.
final class RefreshWatch: HTTPTransport {
    /// What every watched client of a run saw: its overlapping refreshes, by the device's name.
    final class Record: Sendable {
        private let overlaps = Guarded<[String]>([])

        /// The devices that sent overlapping refreshes since the last call, once per overlap.
        func take() -> [String] {
            overlaps.withLock { overlaps in
                defer { overlaps = [] }
                return overlaps
            }
        }

        fileprivate func overlap(on device: String) {
            overlaps.withLock { $0.append(device) }
        }
    }

    private let inner: any HTTPTransport
    /// The device as the run's log names it (`device 3`).
    private let device: String
    private let record: Record
    /// This client's refreshes waiting for their answers.
    private let refreshing = Guarded(0)

    init(_ inner: any HTTPTransport, device: String, record: Record) {
        self.inner = inner
        self.device = device
        self.record = record
    }

    func send(_ request: APIRequest) async throws -> APIResponse {
        guard request.method == .post, request.url.path.hasSuffix("/v1/auth/refresh") else { return try await inner.send(request) }
        let waiting = refreshing.withLock { count in
            count += 1
            return count
        }
        if waiting > 1 { record.overlap(on: device) }
        defer { refreshing.withLock { $0 -= 1 } }
        return try await inner.send(request)
    }

    func stream(
        _ request: APIRequest, onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws {
        try await inner.stream(request, onHead: onHead, onChunk: onChunk)
    }
}
