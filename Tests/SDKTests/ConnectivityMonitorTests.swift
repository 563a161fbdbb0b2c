import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// ``ConnectivityMonitor``: what it learns from requests, what it publishes, and its probe loop
/// (sleeps are recorded by the virtual clock, never waited for).
@Suite(.timeLimit(.minutes(2))) struct ConnectivityMonitorTests {
    let environment = TestEnvironment()

    /// A probe that answers `answers` in turn (the last one repeats) and counts its calls.
    final class ScriptedProbe: Sendable {
        private let state: Locked<(calls: Int, answers: [Bool])>
        /// Each call's number, as it happens.
        let calls: AsyncStream<Int>
        private let continuation: AsyncStream<Int>.Continuation

        init(_ answers: Bool...) {
            state = Locked((0, answers))
            (calls, continuation) = AsyncStream<Int>.makeStream()
        }

        var count: Int { state.value.calls }

        func callAsFunction() -> Bool {
            let (call, answer) = state.withLock { state -> (Int, Bool) in
                state.calls += 1
                let answer = state.answers.count > 1 ? state.answers.removeFirst() : state.answers[0]
                return (state.calls, answer)
            }
            continuation.yield(call)
            return answer
        }
    }

    @Test("any HTTP answer means connected; no answer means offline")
    func learnsFromTransportEvents() {
        let monitor = ConnectivityMonitor(initiallyConnected: false, environment: environment.sdk) { false }

        monitor.transportDidFinish(.response(503))
        #expect(monitor.isConnected)
        monitor.transportDidFinish(.unreachable)
        #expect(!monitor.isConnected)
        monitor.transportDidFinish(.response(200))
        #expect(monitor.isConnected)
    }

    @Test("the API client tells the monitor what each request found")
    func learnsFromTheClient() async throws {
        // Given a client observed by the monitor and a network that fails once, then answers 500
        let monitor = ConnectivityMonitor(initiallyConnected: true, environment: environment.sdk) { false }
        let transport = StubTransport(script: [.offline, .status(500)])
        let client = APIClient(
            configuration: Fixture.configuration(), transport: transport, environment: environment.sdk, observers: [monitor],
            logger: .silent)

        // When a request finds no connection, the monitor says offline
        await #expect(throws: NetworkError.noConnection) { try await client.send(endpoint: .health) }
        #expect(!monitor.isConnected)
        // And when the server answers, even with an error, it says connected
        _ = try await client.send(endpoint: .health)
        #expect(monitor.isConnected)
    }

    @Test("updates() yields the current state, then changes only")
    func updatesYieldChangesOnly() async {
        let monitor = ConnectivityMonitor(initiallyConnected: true, environment: environment.sdk) { false }
        let updates = monitor.updates()

        monitor.set(true)
        monitor.set(false)
        monitor.transportDidFinish(.unreachable)
        monitor.set(true)
        monitor.transportDidFinish(.response(200))
        monitor.set(false)

        let values = await collect(updates) { $0.count == 4 }
        #expect(values == [true, false, true, false])
    }

    @Test("while offline, run() probes with delays doubling from 1 s up to the maximum")
    func probeBackoff() async {
        // Given a server that answers the seventh probe
        let probe = ScriptedProbe(false, false, false, false, false, false, true)
        let monitor = ConnectivityMonitor(initiallyConnected: false, environment: environment.sdk, maximumDelay: .seconds(8)) {
            probe()
        }
        let updates = monitor.updates()

        // When the monitor runs until it is connected
        let running = Task { await monitor.run() }
        let connected = await firstValue(of: updates) { $0 }
        running.cancel()
        await running.value

        // Then it waited 1, 2, 4 and then 8 s (the maximum) between probes
        #expect(connected == true)
        #expect(probe.count == 7)
        #expect(environment.sleeps == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
    }

    @Test("probeNow() (a network path back) ends run()'s wait between probes at once instead of after the delay")
    func probeNowEndsTheWait() async {
        // Given a server that answers the second probe, and sleeps that would last an hour
        let probe = ScriptedProbe(false, true)
        var patient = environment.sdk
        patient.sleep = { _ in try await Task.sleep(for: .seconds(3600)) }
        let monitor = ConnectivityMonitor(initiallyConnected: false, environment: patient) { probe() }
        let running = Task { await monitor.run() }
        var calls = probe.calls.makeAsyncIterator()
        _ = await calls.next()

        // When the device regains a network path after the first probe failed
        let updates = monitor.updates()
        monitor.probeNow()

        // Then the second probe runs at once and the monitor is connected
        let connected = await firstValue(of: updates) { $0 }
        #expect(connected == true)
        #expect(probe.count == 2)
        running.cancel()
        await running.value
    }

    @Test("once connected, run() stops probing until the connection is lost, then starts over at 1 s")
    func stopsProbingWhileConnected() async {
        // Given a monitor that connects at its second probe
        let probe = ScriptedProbe(false, true, false, true)
        let monitor = ConnectivityMonitor(initiallyConnected: false, environment: environment.sdk) { probe() }
        let running = Task { await monitor.run() }
        _ = await firstValue(of: monitor.updates()) { $0 }
        #expect(probe.count == 2)

        // When the connection is lost again
        let updates = monitor.updates()
        monitor.transportDidFinish(.unreachable)
        let values = await collect(updates) { $0.count == 3 }
        running.cancel()
        await running.value

        // Then probing started again with a 1 s delay, and nothing was probed while connected
        #expect(values == [true, false, true])
        #expect(probe.count == 4)
        #expect(environment.sleeps == [.seconds(1), .seconds(1)])
    }

    @Test("cancelling the task ends run() while connected")
    func cancellationWhileConnected() async {
        let probe = ScriptedProbe(true)
        let monitor = ConnectivityMonitor(initiallyConnected: true, environment: environment.sdk) { probe() }

        let running = Task { await monitor.run() }
        running.cancel()
        await running.value

        #expect(probe.count == 0)
        #expect(environment.sleeps.isEmpty)
    }

    @Test("cancelling the task ends run() while it is probing")
    func cancellationWhileProbing() async {
        // Given a probe that hangs on its third call (until cancelled)
        let probe = ScriptedProbe(false)
        let monitor = ConnectivityMonitor(initiallyConnected: false, environment: environment.sdk) {
            let answer = probe()
            if probe.count == 3 { try? await Task.sleep(for: .seconds(3600)) }
            return answer
        }
        let running = Task { await monitor.run() }
        _ = await firstValue(of: probe.calls) { $0 == 3 }

        // When the task is cancelled
        running.cancel()
        await running.value

        // Then run() returned without sleeping or probing again
        #expect(probe.count == 3)
        #expect(environment.sleeps == [.seconds(1), .seconds(2)])
        #expect(!monitor.isConnected)
    }

    // MARK: waitUntilConnected()

    @Test("waitUntilConnected() returns at once while connected, without probing")
    func waitReturnsAtOnceWhenConnected() async throws {
        let probe = ScriptedProbe(false)
        let monitor = ConnectivityMonitor(initiallyConnected: true, environment: environment.sdk) { probe() }

        try await monitor.waitUntilConnected()

        #expect(probe.count == 0)
        #expect(environment.sleeps.isEmpty)
    }

    @Test("offline with no run() probing, waitUntilConnected() probes by itself, delays growing from 1 s, until the server answers")
    func waitProbesByItself() async throws {
        // Given a server that answers the third probe
        let probe = ScriptedProbe(false, false, true)
        let monitor = ConnectivityMonitor(initiallyConnected: false, environment: environment.sdk) { probe() }

        // When a caller waits
        try await monitor.waitUntilConnected()

        // Then it probed three times, 1 and 2 s apart, and the monitor says connected
        #expect(probe.count == 3)
        #expect(environment.sleeps == [.seconds(1), .seconds(2)])
        #expect(monitor.isConnected)
    }

    @Test("while run() is probing, waitUntilConnected() leaves the probing to it")
    func waitLeavesProbingToRun() async throws {
        // Given run() probing (sleeps a thousand times shorter than asked), its second probe hanging
        let fast = SDKEnvironment(now: { Date() }, sleep: { try await Task.sleep(for: $0 / 1000) }, jitter: { 0 })
        let probe = ScriptedProbe(false)
        let monitor = ConnectivityMonitor(initiallyConnected: false, environment: fast) {
            if probe() == false, probe.count >= 2 { try? await Task.sleep(for: .seconds(3600)) }
            return false
        }
        let running = Task { await monitor.run() }
        _ = await firstValue(of: probe.calls) { $0 == 2 }

        // When a caller waits a while, until a request finds the server
        let waiting = Task { try await monitor.waitUntilConnected() }
        try await Task.sleep(for: .milliseconds(50))
        monitor.transportDidFinish(.response(200))
        try await waiting.value
        running.cancel()
        await running.value

        // Then only run() probed
        #expect(probe.count == 2)
    }

    /// An offline monitor whose probe never answers, and a task waiting on it once the probe started.
    func waitingWithHungProbe() async -> (ConnectivityMonitor, Task<Void, any Error>) {
        let probe = ScriptedProbe(false)
        let monitor = ConnectivityMonitor(initiallyConnected: false, environment: environment.sdk) {
            _ = probe()
            try? await Task.sleep(for: .seconds(3600))
            return false
        }
        let waiting = Task { try await monitor.waitUntilConnected() }
        _ = await firstValue(of: probe.calls) { $0 == 1 }
        return (monitor, waiting)
    }

    @Test("a request that gets an answer ends waitUntilConnected()")
    func waitEndsOnAnAnswer() async throws {
        // Given a wait whose probe hangs
        let (monitor, waiting) = await waitingWithHungProbe()

        // When an API request finds the server
        monitor.transportDidFinish(.response(200))

        // Then the wait ends
        try await waiting.value
        #expect(monitor.isConnected)
    }

    @Test("cancelling the waiting task ends waitUntilConnected() with CancellationError")
    func waitEndsOnCancellation() async throws {
        // Given a wait while offline, its probe hanging
        let (monitor, waiting) = await waitingWithHungProbe()

        // When the task is cancelled, Then the wait throws CancellationError
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!monitor.isConnected)
    }
}
