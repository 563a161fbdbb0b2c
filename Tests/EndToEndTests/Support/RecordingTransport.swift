import EduGoSDK
import Foundation
import Synchronization

/// The real transport, remembering every request it was given and every answer it got.
final class RecordingTransport: HTTPTransport {
    struct Exchange: Sendable {
        var request: APIRequest
        /// `nil` when no answer arrived (the connection was dropped).
        var response: APIResponse?
    }

    private let inner = platformTransport()
    private let log = Mutex<[Exchange]>([])

    func send(_ request: APIRequest) async throws -> APIResponse {
        do {
            let response = try await inner.send(request)
            log.withLock { $0.append(Exchange(request: request, response: response)) }
            return response
        } catch {
            log.withLock { $0.append(Exchange(request: request, response: nil)) }
            throw error
        }
    }

    /// The exchanges whose request matches.
    func exchanges(where matches: (APIRequest) -> Bool) -> [Exchange] {
        log.withLock { $0.filter { matches($0.request) } }
    }
}

/// The transport an app gets by default on this platform (AsyncHTTPClient on Linux), unpinned.
func platformTransport() -> any HTTPTransport {
    APIConfiguration(baseURL: URL(fileURLWithPath: "/"), tenantID: "none").makeDefaultTransport()
}
