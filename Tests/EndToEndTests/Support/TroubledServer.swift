import Foundation
import Hummingbird
import Logging
import Synchronization

/// A server that cannot answer well: every request gets the scripted trouble — a status such as
/// 503 (with `Retry-After`), or no answer at all for a long time. Clients pointed at it see an
/// overloaded or hanging backend; their local data came from a real `EduGoTestServer` before.
final class TroubledServer: Sendable {
    /// What every request gets.
    enum Trouble: Sendable {
        /// This status as problem+json, with `Retry-After` when given.
        case status(Int, retryAfter: Int?)
        /// The connection is accepted and no answer comes while the trouble lasts (a minute at most).
        case hang
        /// 404 for requests whose path is `path`; `503` for the rest.
        case notFound(path: String)
    }

    private let trouble: Mutex<Trouble>
    private let requests = Mutex(0)

    init(_ trouble: Trouble) {
        self.trouble = Mutex(trouble)
    }

    /// Changes what the next requests get.
    func set(_ trouble: Trouble) {
        self.trouble.withLock { $0 = trouble }
    }

    /// How many requests arrived.
    var requestCount: Int { requests.withLock { $0 } }

    /// Runs the server on an ephemeral loopback port for the duration of `body`.
    func run<Value: Sendable>(_ body: (URL) async throws -> Value) async throws -> Value {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            responder: CallbackResponder<BasicRequestContext> { [self] request, _ in try await self.answer(request) },
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "troubled-server", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await app.runService() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw TroubledServerError.didNotStart
        }
        let value = try await body(url)
        set(.status(503, retryAfter: nil))
        running.cancel()
        _ = try? await running.value
        return value
    }

    private func answer(_ request: Request) async throws -> Response {
        requests.withLock { $0 += 1 }
        switch trouble.withLock({ $0 }) {
        case .status(let status, let retryAfter):
            return Self.problem(status, retryAfter: retryAfter)
        case .hang:
            let end = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < end, case .hang = trouble.withLock({ $0 }) {
                try await Task.sleep(for: .milliseconds(50))
            }
            return Self.problem(504, retryAfter: nil)
        case .notFound(let path):
            return request.uri.path == path ? Self.problem(404, retryAfter: nil) : Self.problem(503, retryAfter: nil)
        }
    }

    private static func problem(_ status: Int, retryAfter: Int?) -> Response {
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let code = status == 404 ? "not_found" : "unavailable"
        let body = #"{"type":"about:blank","title":"Trouble","status":\#(status),"code":"\#(code)"}"#
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}

enum TroubledServerError: Error {
    case didNotStart
}
