import EduGoSDK
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that delivers requests but, for the first `count` requests matching a predicate,
/// throws away the server's answer and reports a dropped connection: the server committed the
/// write, the client never learned it.
final class LosingTransport: HTTPTransport {
    private let inner = platformTransport()
    private let remaining: Mutex<Int>
    private let matches: @Sendable (APIRequest) -> Bool
    let lost = Mutex<[APIResponse]>([])
    /// Every matching request with the answer the client got (`nil` when it was thrown away).
    let matching = Mutex<[RecordingTransport.Exchange]>([])

    init(losing count: Int, where matches: @escaping @Sendable (APIRequest) -> Bool) {
        self.remaining = Mutex(count)
        self.matches = matches
    }

    func send(_ request: APIRequest) async throws -> APIResponse {
        let response = try await inner.send(request)
        let drop = matches(request) && remaining.withLock { remaining -> Bool in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        if matches(request) {
            matching.withLock { $0.append(RecordingTransport.Exchange(request: request, response: drop ? nil : response)) }
        }
        if drop {
            lost.withLock { $0.append(response) }
            throw URLError(.networkConnectionLost)
        }
        return response
    }
}
