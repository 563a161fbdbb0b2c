import Foundation
import Logging

/// The network layer: builds requests from ``Endpoint``s, runs them through the interceptor
/// chain (security guard, logging, auth), retries by ``RetryPolicy`` and maps failures to
/// ``NetworkError``.
///
/// ```swift
/// let client = APIClient(configuration: APIConfiguration(
///     baseURL: URL(string: "http://127.0.0.1:8080")!, tenantID: "demo"))
/// let courses: Page<Course> = try await client.execute(endpoint: .Courses.list())
/// ```
public final class APIClient: Sendable {
    /// The settings the client was made with: server, tenant, timeouts, retries and pinning.
    public let configuration: APIConfiguration
    /// The session's tokens and their refreshing.
    public let session: TokenRefreshCoordinator
    let environment: SDKEnvironment
    let events = Broadcaster<SessionEvent>()
    private let chain: InterceptorChain
    /// The network, for the one call the interceptor chain cannot carry: the live change stream.
    let transport: any HTTPTransport
    private let observers: [any TransportObserver]
    #if canImport(AsyncHTTPClient)
    /// The connections uploads and downloads stream over: the transport's own when it can.
    let streaming: StreamingClients
    #endif

    /// Creates a client for one server and tenant. Nothing is sent until the first call.
    ///
    /// - Parameters:
    ///   - configuration: The server, tenant, timeouts, retries and pinning.
    ///   - transport: the network; tests pass a stub. `nil` uses the configuration's
    ///     ``APIConfiguration/makeDefaultTransport()`` (one that checks its pins, when it has any).
    ///   - tokenStore: where tokens persist (``FileTokenStore`` on Linux, ``KeychainTokenStore`` on Apple).
    ///     The default keeps them in memory only, so the user signs in again at every launch.
    ///   - environment: the clock, sleep and jitter; tests pass controlled ones.
    ///   - interceptors: extra interceptors, run inside the built-in ones.
    ///   - observers: told about every attempt's outcome (connectivity monitoring).
    ///   - logger: where the built-in interceptors log (requests at `debug`, security warnings).
    public init(
        configuration: APIConfiguration, transport: (any HTTPTransport)? = nil,
        tokenStore: any TokenStore = InMemoryTokenStore(), environment: SDKEnvironment = .live,
        interceptors: [any Interceptor] = [], observers: [any TransportObserver] = [],
        logger: Logger = Logger(label: "edugo.sdk")
    ) {
        let transport = transport ?? configuration.makeDefaultTransport()
        self.configuration = configuration
        self.transport = transport
        self.environment = environment
        self.observers = observers
        #if canImport(AsyncHTTPClient)
        self.streaming = StreamingClients(transport: transport, pinning: configuration.pinning)
        #endif
        let outer: [any Interceptor] = [
            SecurityGuardInterceptor(logger: logger), LoggingInterceptor(level: configuration.logLevel, logger: logger),
        ]
        let refreshChain = InterceptorChain(interceptors: outer, transport: transport)
        let events = self.events
        self.session = TokenRefreshCoordinator(
            store: tokenStore, key: configuration.tokenKey, environment: environment,
            leeway: configuration.refreshLeeway, window: configuration.refreshWindow, events: events,
            refresher: { refreshToken in
                try await RefreshCall(configuration: configuration, chain: refreshChain, now: environment.now)
                    .perform(refreshToken: refreshToken)
            })
        let auth = AuthInterceptor(tenantID: configuration.tenantID, coordinator: session)
        self.chain = InterceptorChain(interceptors: outer + [auth] + interceptors, transport: transport)
    }

    /// Session events (signed in, refreshed, signed out, expired); each call returns a new stream.
    public func sessionEvents() -> AsyncStream<SessionEvent> {
        events.subscribe()
    }

    // MARK: Typed calls

    /// Performs the call and decodes a 2xx body as `T`.
    ///
    /// - Parameters:
    ///   - method: overrides the endpoint's method when given.
    ///   - body: encoded as JSON in the API's snake_case.
    /// - Throws: ``NetworkError`` for transport failures and non-2xx answers.
    public func execute<T: Decodable & Sendable>(
        endpoint: Endpoint, method: HTTPMethod? = nil, body: (any Encodable & Sendable)? = nil,
        headers: [String: String] = [:], as type: T.Type = T.self
    ) async throws -> T {
        try await executeWithMetadata(endpoint: endpoint, method: method, body: body, headers: headers, as: type).value
    }

    /// Like ``execute(endpoint:method:body:headers:as:)`` and also returns status, headers and ETag.
    public func executeWithMetadata<T: Decodable & Sendable>(
        endpoint: Endpoint, method: HTTPMethod? = nil, body: (any Encodable & Sendable)? = nil,
        headers: [String: String] = [:], as type: T.Type = T.self
    ) async throws -> APIResult<T> {
        try await executeWithMetadata(endpoint: endpoint, method: method, body: body, headers: headers, as: type, limits: nil)
    }

    /// ``executeWithMetadata(endpoint:method:body:headers:as:)`` within `limits`.
    func executeWithMetadata<T: Decodable & Sendable>(
        endpoint: Endpoint, method: HTTPMethod? = nil, body: (any Encodable & Sendable)? = nil,
        headers: [String: String] = [:], as type: T.Type = T.self, limits: CallLimits?, asUser userID: String? = nil
    ) async throws -> APIResult<T> {
        let response = try await send(
            endpoint: endpoint, method: method, body: encode(body), headers: headers, limits: limits, asUser: userID)
        guard response.isSuccess else { throw NetworkError.from(response: response, now: environment.now()) }
        do {
            let value = try JSONCoding.decoder.decode(T.self, from: response.body.isEmpty ? Data("{}".utf8) : response.body)
            return APIResult(value: value, statusCode: response.statusCode, headers: response.headers, etag: response.etag)
        } catch {
            throw NetworkError.decodingError(String(describing: error))
        }
    }

    /// Performs a call whose success has no body (204).
    public func perform(
        endpoint: Endpoint, method: HTTPMethod? = nil, body: (any Encodable & Sendable)? = nil,
        headers: [String: String] = [:]
    ) async throws {
        let response = try await send(endpoint: endpoint, method: method, body: encode(body), headers: headers)
        guard response.isSuccess else { throw NetworkError.from(response: response, now: environment.now()) }
    }

    // MARK: Raw calls

    /// Sends the request with retries and returns whatever status the server answered
    /// (including 304 and error statuses).
    ///
    /// - Throws: ``NetworkError`` when no response arrived after the retries, or the session is gone.
    public func send(
        endpoint: Endpoint, method: HTTPMethod? = nil, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> APIResponse {
        try await send(endpoint: endpoint, method: method, body: body, headers: headers, limits: nil)
    }

    /// ``send(endpoint:method:body:headers:)`` within `limits` (the configured retry policy and
    /// timeout when `nil`): every attempt's timeout and every wait ends by the deadline.
    func send(
        endpoint: Endpoint, method: HTTPMethod? = nil, body: Data? = nil, headers: [String: String] = [:],
        limits: CallLimits?, asUser userID: String? = nil
    ) async throws -> APIResponse {
        var endpoint = endpoint
        if let method { endpoint.method = method }
        var request = APIRequest(
            endpoint: endpoint, url: try endpoint.url(relativeTo: configuration.baseURL), headers: headers, body: body,
            timeout: configuration.timeout)
        request.expectedUserID = userID
        request.headers["Accept"] = "application/json"
        if body != nil { request.headers["Content-Type"] = "application/json" }

        let policy = limits?.retryPolicy ?? configuration.retryPolicy
        var attempt = 1
        while true {
            if Task.isCancelled { throw NetworkError.cancelled }
            if let deadline = limits?.deadline {
                let remaining = deadline.timeIntervalSince(environment.now())
                guard remaining > 0 else { throw NetworkError.timeout }
                request.timeout = min(configuration.timeout, Duration(timeInterval: remaining))
            }
            let outcome: RetryPolicy.Outcome
            do {
                let response = try await chain.send(request)
                notify(.response(response.statusCode))
                outcome = .response(response)
            } catch {
                let classified = NetworkError.from(transportError: error)
                if classified == .noConnection || classified == .timeout { notify(.unreachable) }
                outcome = .transportError(classified)
            }
            var decision = policy.decide(
                attempt: attempt, request: request, outcome: outcome, jitter: environment.jitter(), now: environment.now())
            if case .retry(let delay) = decision, let deadline = limits?.deadline,
                environment.now().addingTimeInterval(delay.timeInterval) >= deadline {
                decision = .doNotRetry
            }
            switch (decision, outcome) {
            case (.retry(let delay), _):
                do {
                    try await environment.sleep(delay)
                } catch {
                    throw NetworkError.cancelled
                }
                attempt += 1
            case (.doNotRetry, .response(let response)):
                return response
            case (.doNotRetry, .transportError(let error)):
                throw error
            }
        }
    }

    private func encode(_ body: (any Encodable & Sendable)?) throws -> Data? {
        guard let body else { return nil }
        do {
            return try JSONCoding.encoder.encode(body)
        } catch {
            throw NetworkError.encodingError(String(describing: error))
        }
    }

    private func notify(_ event: TransportEvent) {
        for observer in observers { observer.transportDidFinish(event) }
    }
}

/// The bounds of one call: its retry policy, and the moment by which every attempt and wait ends.
struct CallLimits: Sendable {
    var retryPolicy: RetryPolicy
    var deadline: Date?

    init(retryPolicy: RetryPolicy, deadline: Date? = nil) {
        self.retryPolicy = retryPolicy
        self.deadline = deadline
    }

    /// The limits of a refresh for a read, starting `now`.
    init(read policy: ReadRefreshPolicy, now: Date) {
        self.init(retryPolicy: policy.retryPolicy, deadline: now.addingTimeInterval(policy.budget.timeInterval))
    }

    /// The limits of an outbox send: one attempt. The outbox has its own retry schedule
    /// (`OutboxDecision`: backoff, `Retry-After`), never the client's policy nested inside it.
    static let outboxSend = CallLimits(retryPolicy: .none)
}

/// A decoded body with its response metadata.
public struct APIResult<Value: Sendable>: Sendable {
    /// The decoded body.
    public var value: Value
    /// The HTTP status of the answer (a 2xx).
    public var statusCode: Int
    /// The answer's header fields as received.
    public var headers: [String: String]
    /// The answer's `ETag`, when the server sent one; send it back as `If-None-Match` to revalidate.
    public var etag: String?
}


/// What an attempt told us about reachability.
public enum TransportEvent: Sendable, Equatable {
    /// The server answered with this status.
    case response(Int)
    /// No answer: offline or timed out.
    case unreachable
}

/// Observes the outcome of every attempt (the connectivity monitor learns from them).
public protocol TransportObserver: Sendable {
    /// Called after every attempt, in the task that made it: return quickly and do not block.
    ///
    /// - Parameter event: The status the server answered, or ``TransportEvent/unreachable``.
    func transportDidFinish(_ event: TransportEvent)
}
