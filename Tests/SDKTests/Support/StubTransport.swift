import Foundation
import Synchronization

@_spi(EduGoInternals) @testable import EduGoSDK

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` that never touches the network: it records every request it is given
/// and answers from a closure (or a script of outcomes, one per request).
final class StubTransport: HTTPTransport {
    typealias Responder = @Sendable (APIRequest) async throws -> APIResponse

    private let responder: Responder
    private let recorded = Mutex<[APIRequest]>([])

    init(_ responder: @escaping Responder) {
        self.responder = responder
    }

    /// Answers each request with the next outcome; the last outcome repeats once the script runs out.
    convenience init(script outcomes: [StubOutcome]) {
        precondition(!outcomes.isEmpty, "a script needs at least one outcome")
        let remaining = Locked(outcomes)
        self.init { _ in
            let next = remaining.withLock { queue in queue.count > 1 ? queue.removeFirst() : queue[0] }
            return try next.resolve()
        }
    }

    /// Always answers with `response`.
    convenience init(always response: APIResponse) {
        self.init(script: [.response(response)])
    }

    func send(_ request: APIRequest) async throws -> APIResponse {
        recorded.withLock { $0.append(request) }
        return try await responder(request)
    }

    /// Every request received, in order.
    var requests: [APIRequest] { recorded.withLock { $0 } }

    /// The requests received for one method and (percent-encoded) path.
    func requests(_ method: HTTPMethod, _ path: String) -> [APIRequest] {
        requests.filter { $0.method == method && $0.url.path == path }
    }

    /// How many `POST /v1/auth/refresh` calls arrived.
    var refreshCount: Int { requests(.post, "/v1/auth/refresh").count }
}

/// One scripted answer of a ``StubTransport``.
enum StubOutcome: Sendable {
    case response(APIResponse)
    /// The transport fails with a `URLError` of this code (no HTTP response arrived).
    case failure(URLError.Code)

    func resolve() throws -> APIResponse {
        switch self {
        case .response(let response): return response
        case .failure(let code): throw URLError(code)
        }
    }

    static func status(_ status: Int, headers: [String: String] = [:]) -> StubOutcome {
        .response(.json(status, [:] as [String: String], headers: headers))
    }

    static let offline = StubOutcome.failure(.notConnectedToInternet)
}

extension APIRequest {
    /// The bearer token the request carries, if any.
    var bearerToken: String? {
        headers["Authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst("Bearer ".count)) : nil }
    }

    /// The JSON body as a dictionary.
    var jsonBody: [String: Any]? {
        body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}
