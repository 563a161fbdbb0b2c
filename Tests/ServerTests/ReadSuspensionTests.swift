import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing

@testable import EduGoServerStore

/// Issue #42, item 10: the minute-long stall. A request-path read that waited for a busy
/// database on the calling thread parked one of Swift's cooperative threads (two on this machine);
/// two such reads stalled every task of the process. Reads now suspend while they wait.
@Suite(.timeLimit(.minutes(2))) struct ReadSuspensionTests {
    /// Who let the held readers go: the probe task (it ran while reads were waiting) or the
    /// fallback timer (nothing on the cooperative pool ran until then).
    enum Release: Equatable { case probe, fallback }

    /// Holds readers until it is opened, once, by whoever comes first.
    final class Gate: Sendable {
        let holders: Int
        private let semaphore = DispatchSemaphore(value: 0)
        private let state = Mutex<(held: Int, started: Int, release: Release?)>((0, 0, nil))

        init(holders: Int) { self.holders = holders }

        var held: Int { state.withLock { $0.held } }
        var started: Int { state.withLock { $0.started } }
        var release: Release? { state.withLock { $0.release } }

        /// Runs on a reader's thread: counts itself, then waits for the gate.
        func hold() {
            state.withLock { $0.held += 1 }
            semaphore.wait()
        }

        func start() { state.withLock { $0.started += 1 } }

        func open(_ by: Release) {
            let first = state.withLock { state -> Bool in
                guard state.release == nil else { return false }
                state.release = by
                return true
            }
            if first { for _ in 0..<holders { semaphore.signal() } }
        }
    }

    @Test("reads waiting for a busy database leave the cooperative threads free: a task runs while 16 reads wait", arguments: [false, true])
    func waitingReadsSuspend(fileBacked: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let database = try TenantDatabase.open(
                tenantID: try #require(TenantID("demo")), at: fileBacked ? directory.appendingPathComponent("demo.sqlite") : nil)
            // Given every reader held (the in-memory queue's one, or the pool's four) by a read that
            // waits on a gate
            // (and a timer off the cooperative pool that opens the gate after 30 s whatever happens:
            // without it, reads blocking their threads would hold the pool's threads for ever)
            let gate = Gate(holders: fileBacked ? 4 : 1)
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) { gate.open(.fallback) }
            let holding = (0..<gate.holders).map { _ in Task { try await database.read { _ in gate.hold() } } }
            while gate.held < gate.holders { try await Task.sleep(for: .milliseconds(5)) }

            // When 16 more reads start, more than the process has cooperative threads
            let waiting = (0..<16).map { _ in
                Task {
                    gate.start()
                    return try await database.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
                }
            }
            while gate.started < 16 { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(20))

            // Then a task on the cooperative pool still runs, and it is the one that opens the gate
            await Task.detached { gate.open(.probe) }.value
            for read in waiting { #expect(try await read.value == 1) }
            for read in holding { try await read.value }
            #expect(gate.release == .probe)
        }
    }
}
