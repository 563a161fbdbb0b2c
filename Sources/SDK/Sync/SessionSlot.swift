import Foundation

/// The one owner of an ``EduGoClient``'s open session. Sign-in, resuming and sign-out each change
/// it in one step that no other change overlaps, in the order they were asked: two concurrent
/// sign-ins end with exactly one open session (the last one's, whose tokens are stored), and the
/// session being replaced is stopped, and its ``OfflineSession/run()`` has returned, before the
/// next one opens.
actor SessionSlot {
    private var current: OfflineSession?
    /// Whether a change is under way.
    private var changing = false
    /// The changes waiting for the one under way, oldest first.
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `change` on the open session once every change asked before it has finished; the
    /// session it returns as `open` is the open one afterwards (when it throws, nothing changes).
    func change<Value: Sendable>(
        _ change: @Sendable (_ current: OfflineSession?) async throws -> (open: OfflineSession?, value: Value)
    ) async throws -> Value {
        if changing {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            changing = true
        }
        defer { handOver() }
        let outcome = try await change(current)
        current = outcome.open
        return outcome.value
    }

    /// Lets the next waiting change run, or marks the slot idle.
    private func handOver() {
        if waiting.isEmpty {
            changing = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
