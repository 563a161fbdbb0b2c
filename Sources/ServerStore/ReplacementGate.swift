/// Keeps a tenant's data from being replaced (a snapshot restored) while a request is between
/// two of its transactions that must see the same data.
///
/// An idempotent write claims its key, runs, and stores its answer: three transactions. A restore
/// that landed between them would take the claim back and keep the write, or take the write back
/// and drop the answer; a retry would then run the write a second time in the restored data. So
/// such a request runs ``whileInPlace(_:)`` (any number at once), and a restore
/// ``replacing(_:)`` waits until none is running and lets none start until it is done.
///
/// One per tenant id, kept by the registry with the tenant's caches, so every pool opened for the
/// tenant shares it. A restore may wait behind a steady stream of such requests (they are short
/// writes); nested use is safe, since a waiting restore does not hold new requests back.
package actor ReplacementGate {
    private var running = 0
    private var replacing = false
    private var waitingRequests: [CheckedContinuation<Void, Never>] = []
    private var waitingReplacements: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// Runs `body` while no replacement of the data can start.
    package nonisolated func whileInPlace<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        await enter()
        do {
            let value = try await body()
            await leave()
            return value
        } catch {
            await leave()
            throw error
        }
    }

    /// Runs `body` (the replacement) once no ``whileInPlace(_:)`` is running, and alone.
    package nonisolated func replacing<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        await beginReplacing()
        do {
            let value = try await body()
            await endReplacing()
            return value
        } catch {
            await endReplacing()
            throw error
        }
    }

    /// Counts the request in, at once or, behind a replacement, when that ends (its waker counts
    /// it, so no replacement can start between the wake-up and the request's first step).
    private func enter() async {
        guard replacing else {
            running += 1
            return
        }
        await withCheckedContinuation { waitingRequests.append($0) }
    }

    private func leave() {
        running -= 1
        wakeReplacement()
    }

    /// Starts the replacement at once or, when requests run or another replacement does, once
    /// the gate is handed to it (``wakeReplacement()`` marks it replacing before it wakes).
    private func beginReplacing() async {
        guard replacing || running > 0 else {
            replacing = true
            return
        }
        await withCheckedContinuation { waitingReplacements.append($0) }
    }

    private func endReplacing() {
        replacing = false
        guard !wakeReplacement() else { return }
        let requests = waitingRequests
        waitingRequests = []
        running += requests.count
        requests.forEach { $0.resume() }
    }

    /// Hands the gate to the next waiting replacement when nothing runs; returns whether it did.
    @discardableResult
    private func wakeReplacement() -> Bool {
        guard running == 0, !replacing, !waitingReplacements.isEmpty else { return false }
        replacing = true
        waitingReplacements.removeFirst().resume()
        return true
    }
}
