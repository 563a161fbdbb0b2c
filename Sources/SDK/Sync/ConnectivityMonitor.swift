import Foundation
import Synchronization

#if canImport(Network)
import Network
#endif

/// Knows whether the server can be reached.
///
/// It learns from every request the ``APIClient`` makes (any HTTP answer means reachable; a
/// transport failure means not), and while offline its ``run()`` probes `GET /health` with a
/// growing delay; ``probeNow()`` cuts the delay short. On Apple platforms `NWPathMonitor` also
/// reports when the device loses a network path (offline at once) or regains one (a probe at
/// once: a path being up does not prove the server is).
public final class ConnectivityMonitor: TransportObserver, Sendable {
    private let state: Broadcaster<Bool>
    private let probe: @Sendable () async -> Bool
    private let environment: SDKEnvironment
    private let maximumDelay: Duration
    /// How many ``run()`` loops are probing (``waitUntilConnected()`` probes only when none is).
    private let runs = Atomic<Int>(0)
    /// ``probeNow()`` calls: a waiting ``run()`` probes at once.
    private let wakeups = Broadcaster<Int>()
    /// Set by ``probeNow()`` until a ``run()`` acted on it, so a call made just before the wait
    /// began is not lost.
    private let wakeRequested = Atomic<Bool>(false)

    /// A monitor that asks `probe` whether the server answers: for tests, or for a reachability check
    /// other than `GET /health`.
    ///
    /// - Parameters:
    ///   - initiallyConnected: the assumption before anything was learned.
    ///   - environment: the clock and sleep used between probes (tests pass a fast one).
    ///   - maximumDelay: the longest wait between two probes while offline.
    ///   - probe: answers whether the server responds (usually `GET /health`).
    public init(
        initiallyConnected: Bool = true, environment: SDKEnvironment = .live, maximumDelay: Duration = .seconds(30),
        probe: @escaping @Sendable () async -> Bool
    ) {
        self.state = Broadcaster(initiallyConnected)
        self.environment = environment
        self.maximumDelay = maximumDelay
        self.probe = probe
    }

    /// A monitor whose probe is `GET baseURL/health` sent through `transport`.
    ///
    /// A status below 500 counts as reachable, and so does a certificate the pins reject (the server
    /// answered; requests report the trust failure themselves); a 5xx or no answer does not.
    ///
    /// - Parameters:
    ///   - baseURL: the API's base URL, as in ``APIConfiguration/baseURL``.
    ///   - transport: the transport to probe with; pass the API's, so probes use the same pins. When
    ///     `nil`, an unpinned ``APIConfiguration/makeDefaultTransport()`` (AsyncHTTPClient on Linux).
    ///   - environment: the clock and sleep used between probes.
    public convenience init(baseURL: URL, transport: (any HTTPTransport)? = nil, environment: SDKEnvironment = .live) {
        let transport = transport ?? APIConfiguration.makeDefaultTransport(pinning: .disabled)
        self.init(environment: environment) {
            guard let url = try? Endpoint.health.url(relativeTo: baseURL) else { return false }
            let request = APIRequest(endpoint: .health, url: url, timeout: .seconds(5))
            do {
                return try await transport.send(request).statusCode < 500
            } catch NetworkError.pinningFailed, NetworkError.untrustedCertificate {
                // The server answered the handshake: reachable, just not trusted. Requests report
                // that themselves; it is not "offline".
                return true
            } catch {
                return false
            }
        }
    }

    /// Whether the server is thought reachable now: the last request or probe got an answer.
    ///
    /// Use it to enable online-only actions; follow changes with ``updates()``.
    public var isConnected: Bool { state.current == true }

    /// Whether the server is reachable, as a stream: the current state first, then every change
    /// (drive an offline banner with it).
    public func updates() -> AsyncStream<Bool> {
        state.subscribe()
    }

    /// Learns from a finished request: any HTTP answer means the server is reachable, no answer
    /// means it is not.
    ///
    /// An ``APIClient`` that has this monitor among its observers calls it after every attempt;
    /// an app that sends requests by other means can report them here.
    ///
    /// - Parameter event: the status the server answered, or ``TransportEvent/unreachable``.
    public func transportDidFinish(_ event: TransportEvent) {
        switch event {
        case .response: set(true)
        case .unreachable: set(false)
        }
    }

    /// Records what was learned about the connection; only changes are published.
    public func set(_ connected: Bool) {
        state.update { $0 = connected }
    }

    /// Probes while offline, with a delay growing from 1 s to `maximumDelay`, until cancelled.
    public func run() async {
        runs.add(1, ordering: .relaxed)
        defer { runs.subtract(1, ordering: .relaxed) }
        #if canImport(Network)
        let path = PathWatcher(monitor: self)
        path.start()
        defer { path.stop() }
        #endif
        var delay = Duration.seconds(1)
        while !Task.isCancelled {
            if state.current == true {
                delay = .seconds(1)
                for await connected in updates() where !connected { break }
                continue
            }
            if await probe() {
                state.update { $0 = true }
                continue
            }
            do {
                if try await wait(delay) { delay = .seconds(1) } else { delay = min(delay * 2, maximumDelay) }
            } catch {
                return
            }
        }
    }

    /// Asks a ``run()`` that waits between probes to probe at once (the device regained a network
    /// path, the app came to the foreground). Does nothing while connected.
    public func probeNow() {
        wakeRequested.store(true, ordering: .releasing)
        wakeups.emit(1)
    }

    /// Sleeps `delay`, or less when ``probeNow()`` is called; returns whether it was woken.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    private func wait(_ delay: Duration) async throws -> Bool {
        let calls = wakeups.subscribe()
        if wakeRequested.exchange(false, ordering: .acquiringAndReleasing) { return true }
        let woken = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.environment.sleep(delay)
                return false
            }
            group.addTask {
                for await _ in calls { return true }
                throw CancellationError()  // the stream ends early only when the task is cancelled
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        wakeRequested.store(false, ordering: .releasing)
        return woken
    }

    /// Returns once the server is reachable (at once when it is already thought to be).
    ///
    /// While no ``run()`` is probing, it runs one itself until the server answers, so a caller
    /// that does not run the monitor is not left waiting forever (and ``probeNow()`` reaches it).
    /// Any request that gets an answer meanwhile ends the wait too.
    ///
    /// - Throws: `CancellationError` as soon as the calling task is cancelled.
    public func waitUntilConnected() async throws {
        try Task.checkCancellation()
        guard !isConnected else { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await connected in self.updates() where connected { return }
                throw CancellationError()  // the stream ends early only when the task is cancelled
            }
            if runs.load(ordering: .relaxed) == 0 {
                group.addTask { await self.run() }  // returns only when cancelled
            }
            defer { group.cancelAll() }
            _ = try await group.next()
        }
        try Task.checkCancellation()
    }
}

#if canImport(Network)
/// Forwards `NWPathMonitor` changes: an unsatisfied path means offline; a satisfied one asks for
/// a probe (the path being up does not prove the server is).
private final class PathWatcher: Sendable {
    private let monitor: NWPathMonitor
    private weak let connectivity: ConnectivityMonitor?

    init(monitor connectivity: ConnectivityMonitor) {
        self.monitor = NWPathMonitor()
        self.connectivity = connectivity
    }

    func start() {
        monitor.pathUpdateHandler = { [weak connectivity] path in
            if path.status == .satisfied {
                connectivity?.probeNow()
            } else {
                connectivity?.set(false)
            }
        }
        monitor.start(queue: DispatchQueue(label: "edugo.sdk.path-monitor"))
    }

    func stop() {
        monitor.cancel()
    }
}
#endif
