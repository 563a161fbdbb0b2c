import EduGoGuarded
import EduGoServer
import EduGoServerStore
import Foundation
import Hummingbird
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An EduGo development server running inside your test process, for testing an app or SDK
/// integration against a real, stateful backend.
///
/// `start()` runs a dev-mode server on a free loopback port with in-memory storage and creates a
/// fresh tenant with one account per role. Fault rules and the movable clock let a test see how its
/// client behaves when the network misbehaves or time passes:
///
/// ```swift
/// let server = try await EduGoTestServer.start()
/// defer { Task { await server.shutdown() } }
/// let student = server.account(.student)
/// // Lose the answer of the next progress write (the server commits it):
/// try await server.inject(.dropResponse, method: .put, path: "/v1/courses/*/progress", times: 1)
/// // Expire every access token:
/// try await server.advanceClock(by: .seconds(901))
/// ```
///
/// ``stop()`` takes the server off the network (clients see the connection refused, as when a
/// device goes offline) and ``restart()`` brings it back on the same port with the same data, so a
/// test can watch its client queue writes and then sync them.
///
/// Each server is independent (its own port, storage and clock), so tests may run in parallel.
/// Call ``shutdown()`` when the test ends, or use ``with(_:_:)``; dropping the last reference also
/// stops the server, without waiting for it.
public final class EduGoTestServer: Sendable {
    /// The role of a seeded account.
    public enum Role: String, Sendable, CaseIterable, Codable {
        case admin, teacher, student
    }

    /// A seeded account of the server's fresh tenant.
    public struct Account: Sendable, Equatable {
        /// The sign-in email.
        public var email: String
        /// The sign-in password.
        public var password: String
        /// The account's role.
        public var role: Role
    }

    /// `http://127.0.0.1:<port>`, or `https://127.0.0.1:<port>` for a TLS server.
    public let baseURL: URL
    /// The fresh tenant created for this server (send it as `X-Tenant-ID` / the SDK's tenant).
    public let tenantID: String
    /// The fresh tenant's accounts, one per role.
    public let accounts: [Account]

    private let configuration: Guarded<ServerConfiguration>
    private let running: Guarded<RunningServer?>
    private let ownedDirectory: URL?
    private let offset: Guarded<Int>
    private let session: URLSession

    private init(
        baseURL: URL, tenantID: String, accounts: [Account], configuration: ServerConfiguration,
        running: RunningServer, ownedDirectory: URL?, session: URLSession
    ) {
        self.baseURL = baseURL
        self.tenantID = tenantID
        self.accounts = accounts
        self.configuration = Guarded(configuration)
        self.running = Guarded(running)
        self.ownedDirectory = ownedDirectory
        self.offset = Guarded(0)
        self.session = session
    }

    deinit {
        running.withLock { $0?.cancel() }
        if let ownedDirectory { try? FileManager.default.removeItem(at: ownedDirectory) }
    }

    /// Starts a server and creates its tenant.
    ///
    /// - Parameter configure: Adjusts the configuration before the server starts (token lifetimes,
    ///   rate limits, `seedDemoData`, the base clock, storage). The server always runs in dev mode
    ///   on `127.0.0.1` with a free port; storage defaults to a temporary directory that
    ///   ``shutdown()`` removes (so ``restart()`` keeps the data), bcrypt to cost 4, the lowest
    ///   bcrypt allows (passwords are still really hashed; a sign-in takes about 2 ms instead of
    ///   about 280 ms at production's 12; dev mode only) and demo seeding to off. With `.inMemory` storage a
    ///   restarted server starts empty.
    /// - Throws: ``EduGoTestServerError`` when the server does not come up within 30 seconds, or
    ///   the error that prevented it from starting.
    ///   - tls: Serve HTTPS with a development certificate made in the server's storage (`tls/`),
    ///     unless `configure` sets ``ServerConfiguration/tls`` itself (an expired certificate, one
    ///     for another name). Read its pins from ``tls``.
    public static func start(
        tls: Bool = false, _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> EduGoTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-test-\(UUID().uuidString)")
        var configuration = ServerConfiguration(
            port: 0, storage: .directory(directory), devMode: true, seedDemoData: false, logLevel: .critical,
            passwordHashCost: 4)
        configure(&configuration)
        if tls, configuration.tls == nil {
            let root: URL
            switch configuration.storage {
            case .directory(let url): root = url
            case .inMemory: root = directory
            }
            configuration.tls = try TLSIdentity.development(in: root.appendingPathComponent("tls", isDirectory: true))
        }
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.devMode = true
        let ownedDirectory = configuration.storage == .directory(directory) ? directory : nil
        func removeDirectory() {
            if let ownedDirectory { try? FileManager.default.removeItem(at: ownedDirectory) }
        }
        let (running, port): (RunningServer, Int)
        do {
            (running, port) = try await launch(configuration)
        } catch {
            removeDirectory()
            throw error
        }
        configuration.port = port
        // No cookie store and no cache, as the SDK's transport: FoundationNetworking's shared
        // stores are process-wide and only get in the way of a test's plain requests.
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: sessionConfiguration)
        do {
            let scheme = configuration.tls == nil ? "http" : "https"
            guard let baseURL = URL(string: "\(scheme)://127.0.0.1:\(port)") else { throw EduGoTestServerError.didNotStart }
            let created: CreatedTenant = try await DevRequest(
                session: session, baseURL: baseURL, trustedChain: configuration.tls?.certificateChainDER
            ).send("POST", "/__dev/tenants", expecting: 201)
            let accounts = created.accounts.compactMap { account in
                Role(rawValue: account.role).map { Account(email: account.email, password: account.password, role: $0) }
            }
            return EduGoTestServer(
                baseURL: baseURL, tenantID: created.tenantId, accounts: accounts, configuration: configuration,
                running: running, ownedDirectory: ownedDirectory, session: session)
        } catch {
            await running.stop()
            session.invalidateAndCancel()
            removeDirectory()
            throw error
        }
    }

    /// Starts a server, runs `body` with it, and shuts it down whatever `body` does.
    ///
    /// - Parameters:
    ///   - configure: As for ``start(_:)``.
    ///   - body: The test's work against the running server.
    public static func with<Value: Sendable>(
        tls: Bool = false,
        _ configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (EduGoTestServer) async throws -> Value
    ) async throws -> Value {
        let server = try await start(tls: tls, configure)
        do {
            let value = try await body(server)
            await server.shutdown()
            return value
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// The fresh tenant's account with `role`.
    public func account(_ role: Role) -> Account {
        accounts.first { $0.role == role } ?? Account(email: "", password: "", role: role)
    }

    /// Takes the server off the network and waits until its socket is closed: clients see the
    /// connection refused. Its data stays for ``restart()``.
    public func stop() async {
        let task = running.withLock { task in
            defer { task = nil }
            return task
        }
        guard let task else { return }
        await task.stop()
    }

    /// Brings a stopped server back on the same port, with the same data and clock offset (fault
    /// rules do not survive a restart). Does nothing while the server runs.
    ///
    /// - Throws: ``EduGoTestServerError/didNotStart`` when the port was taken meanwhile, or the
    ///   error that prevented the server from starting.
    public func restart() async throws {
        try await restart(tls: nil)
    }

    /// Brings a stopped server back on the same port with another TLS identity (a rotated
    /// development certificate, say), as a real server restarted with `--tls-rotate` would.
    ///
    /// - Parameter identity: The new identity; `nil` keeps the current one.
    /// - Throws: As ``restart()``.
    public func restart(tls identity: TLSIdentity?) async throws {
        guard running.withLock({ $0 == nil }) else { return }
        let configuration = self.configuration.withLock { configuration in
            if let identity { configuration.tls = identity }
            return configuration
        }
        let (task, _) = try await Self.launch(configuration)
        let spare = running.withLock { current -> RunningServer? in
            guard current == nil else { return task }
            current = task
            return nil
        }
        if let spare {  // another restart won the race: keep its server
            await spare.stop()
            return
        }
        let seconds = offset.withLock { $0 }
        if seconds > 0 {
            let _: ClockState = try await request.send(
                "POST", "/__dev/clock", body: ["advance_seconds": .int(seconds)], expecting: 200)
        }
    }

    /// Stops the server, waits until its socket is closed and removes its temporary storage.
    public func shutdown() async {
        await stop()
        session.invalidateAndCancel()
        if let ownedDirectory { try? FileManager.default.removeItem(at: ownedDirectory) }
    }

    // MARK: Clock

    /// The server's current time (its base clock plus every ``advanceClock(by:)``).
    ///
    /// Give it to your client as its clock, so both sides see time pass together:
    /// `SDKEnvironment(now: server.now, ...)`.
    public func now() -> Date {
        configuration.withLock { $0.now }().addingTimeInterval(TimeInterval(offset.withLock { $0 }))
    }

    /// Moves the server's clock forward: tokens expire, rate-limit windows pass, idempotency records age.
    ///
    /// - Parameter duration: How far, in whole seconds (fractions are dropped).
    /// - Throws: ``EduGoTestServerError/unexpectedStatus(_:_:)`` if the server refused.
    public func advanceClock(by duration: Duration) async throws {
        let seconds = max(0, Int(duration.components.seconds))
        let state: ClockState = try await request.send(
            "POST", "/__dev/clock", body: ["advance_seconds": .int(seconds)], expecting: 200)
        offset.withLock { $0 = state.offsetSeconds }
    }

    /// Returns the server's clock to its base clock.
    public func resetClock() async throws {
        let state: ClockState = try await request.send("DELETE", "/__dev/clock", expecting: 200)
        offset.withLock { $0 = state.offsetSeconds }
    }

    // MARK: Faults

    /// Adds a fault rule for this server's tenant.
    ///
    /// - Parameters:
    ///   - fault: What happens to a matching request.
    ///   - method: Only requests with this method; any when `nil`.
    ///   - path: A path glob: `*` matches one segment, a final `**` the rest (`/v1/courses/*/progress`).
    ///   - times: Fire for the next `times` matching requests, then retire; until removed when `nil`.
    ///   - probability: Chance that a matching request fires the rule (0…1).
    ///   - seed: Makes the probability draws, random waits and garbage bytes the same in every run.
    ///   - delay: Waited before the fault acts (for ``Fault/delay(_:)`` it is the fault itself; not
    ///     with ``Fault/randomDelay(min:max:)`` or ``Fault/logNormalDelay(median:sigma:)``, which are
    ///     the wait).
    ///   - tenantID: Another tenant of this server (a seeded `demo`); this server's fresh tenant when `nil`.
    /// - Returns: The stored rule.
    /// - Throws: ``EduGoTestServerError/unexpectedStatus(_:_:)`` for a rule the server refuses (a bad glob).
    @discardableResult
    public func inject(
        _ fault: Fault, method: HTTPRequest.Method? = nil, path: String, times: Int? = nil,
        probability: Double = 1, seed: UInt64? = nil, delay: Duration? = nil, tenantID: String? = nil
    ) async throws -> InjectedFault {
        var body: [String: DevRequest.Value] = ["path": .string(path), "probability": .double(probability)]
        body["method"] = method.map { .string($0.rawValue) }
        body["times"] = times.map { .int($0) }
        body["seed"] = seed.map { .int(Int(truncatingIfNeeded: $0)) }
        if let delay { body["delay_ms"] = .int(Self.milliseconds(delay)) }
        switch fault {
        case .delay(let duration):
            body["action"] = .string("delay")
            body["delay_ms"] = .int(Self.milliseconds(duration))
        case .status(let status, let retryAfter):
            body["action"] = .string("status")
            body["status"] = .int(status)
            body["retry_after"] = retryAfter.map { .int($0) }
        case .dropRequest:
            body["action"] = .string("drop_request")
        case .dropResponse:
            body["action"] = .string("drop_response")
        case .randomDelay(let min, let max):
            body["action"] = .string("delay")
            body["min_ms"] = .int(Self.milliseconds(min))
            body["max_ms"] = .int(Self.milliseconds(max))
        case .logNormalDelay(let median, let sigma):
            body["action"] = .string("delay")
            body["median_ms"] = .int(Self.milliseconds(median))
            body["sigma"] = .double(sigma)
        case .slowBody(let chunks, let duration):
            body["action"] = .string("slow_body")
            body["chunks"] = .int(chunks)
            body["duration_ms"] = .int(Self.milliseconds(duration))
        case .truncate(let bytes):
            body["action"] = .string("truncate")
            body["bytes"] = .int(bytes)
        case .garbage(let bytes):
            body["action"] = .string("garbage")
            body["bytes"] = .int(bytes)
        }
        return try await request.send("POST", "/__dev/faults", tenant: tenantID ?? self.tenantID, body: body, expecting: 201)
    }

    /// The tenant's fault rules, with how often each fired.
    ///
    /// - Parameter tenantID: Another tenant of this server; this server's fresh tenant when `nil`.
    public func injectedFaults(tenantID: String? = nil) async throws -> [InjectedFault] {
        let list: FaultList = try await request.send(
            "GET", "/__dev/faults", tenant: tenantID ?? self.tenantID, expecting: 200)
        return list.items
    }

    /// Removes every fault rule of the tenant.
    ///
    /// - Parameter tenantID: Another tenant of this server; this server's fresh tenant when `nil`.
    public func removeFaults(tenantID: String? = nil) async throws {
        try await request.sendWithoutAnswer(
            "DELETE", "/__dev/faults", tenant: tenantID ?? self.tenantID, expecting: 204)
    }

    // MARK: TLS and the request log

    /// The server's TLS identity (certificate chain and pins), `nil` for plain HTTP.
    public var tls: TLSIdentity? { configuration.withLock { $0.tls } }

    /// One request the server handled, as its access log kept it.
    public struct LoggedRequest: Sendable, Equatable, Decodable {
        /// The entry's place in the log (1 for the first request).
        public var sequence: Int
        /// The HTTP method.
        public var method: String
        /// The matched route template (`/v1/courses/{id}`), or `unmatched`.
        public var route: String
        /// The answered status.
        public var status: Int
        /// The request's `Idempotency-Key`, when it sent one.
        public var idempotencyKey: String? = nil
        /// With a key: `true` when the server replayed a stored answer, `false` when the handler ran.
        public var replayed: Bool? = nil
        /// The dev-mode fault rule that fired on it, if any.
        public var fault: FiredFault? = nil

        /// A fault rule that fired on a request.
        public struct FiredFault: Sendable, Equatable, Decodable {
            /// The rule's id (`f-1`).
            public var ruleId: String
            /// What it did: `delay`, `status`, `drop_request`, `drop_response`, `slow_body`, `truncate` or `garbage`.
            public var action: String
        }
    }

    /// The requests the server handled after the entry numbered `sequence`, newest first (its
    /// access log keeps the last 500; the log's own reads are not in it). A test asserts with it
    /// that a request never reached the server.
    public func loggedRequests(after sequence: Int = 0) async throws -> [LoggedRequest] {
        let log: RequestLog = try await request.send("GET", "/__dev/requests?after=\(sequence)", expecting: 200)
        return log.items
    }

    // MARK: Internals

    var devRequest: DevRequest { request }

    private var request: DevRequest {
        DevRequest(session: session, baseURL: baseURL, trustedChain: tls?.certificateChainDER)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// Runs a server built from `configuration` and waits for the port it bound.
    private static func launch(_ configuration: ServerConfiguration) async throws -> (RunningServer, Int) {
        var configuration = configuration
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        configuration.onServerRunning = { port in
            continuation.yield(port)
            continuation.finish()
        }
        let app = try await buildApplication(configuration)
        let running = RunningServer(app)
        guard let port = await firstPort(of: ports, within: .seconds(30)) else {
            await running.stop()
            throw EduGoTestServerError.didNotStart
        }
        return (running, port)
    }

    private static func firstPort(of ports: AsyncStream<Int>, within limit: Duration) async -> Int? {
        await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                for await port in ports { return port }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// Why ``EduGoTestServer`` could not do what a test asked.
public enum EduGoTestServerError: Error, Sendable, Equatable {
    /// The server did not report a bound port in time.
    case didNotStart
    /// A dev endpoint answered something else than expected (status, body).
    case unexpectedStatus(Int, String)
}
