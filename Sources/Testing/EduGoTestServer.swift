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

    let configuration: Guarded<ServerConfiguration>
    private let running: Guarded<RunningServer?>
    private let ownedDirectory: URL?
    /// How far ``advanceClock(by:)`` moved the server's clock, in seconds.
    let offset: Guarded<Int>
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

    // MARK: TLS

    /// The server's TLS identity (certificate chain and pins), `nil` for plain HTTP.
    public var tls: TLSIdentity? { configuration.withLock { $0.tls } }

    // MARK: Internals

    var devRequest: DevRequest { request }

    private var request: DevRequest {
        DevRequest(session: session, baseURL: baseURL, trustedChain: tls?.certificateChainDER)
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
