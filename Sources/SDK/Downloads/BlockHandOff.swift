import EduGoGuarded

/// Received blocks of a download on their way to the task that writes and hashes them
/// (``PartialFileWriter``), in order, at most ``capacity`` at a time: the sender waits while that
/// task is `capacity` blocks behind, so memory stays flat however slow the disk or the hash is, and
/// both overlap with receiving.
///
/// A block is an immutable `[UInt8]` once handed over: the hash covers exactly the bytes that were
/// written. A stored block comes back through ``recycle(_:)`` and the sender refills it
/// (``spareBlock()``), so a download allocates at most `capacity + 1` blocks.
///
/// One sender (``send(_:)``) and one receiver (``next()``); either end may stop the hand-off
/// (``close()`` after the last block, ``cancel()`` to drop what is queued, ``fail(_:)`` when the
/// receiver cannot go on).
final class BlockHandOff: Sendable {
    /// The most blocks handed over and not yet hashed.
    let capacity: Int
    private let state: Guarded<State>

    private struct State {
        var queue: [[UInt8]] = []
        var spare: [[UInt8]] = []
        /// Blocks sent and not yet recycled: queued, or being hashed.
        var inFlight = 0
        var peakInFlight = 0
        var closed = false
        var cancelled = false
        var failure: (any Error)?
        var hasher: CheckedContinuation<[UInt8]?, Never>?
        var waitingWriter: CheckedContinuation<Void, Never>?

        mutating func takeSlot() {
            inFlight += 1
            peakInFlight = max(peakInFlight, inFlight)
        }
    }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.state = Guarded(State())
    }

    /// The most blocks that were in flight at once so far (never above ``capacity``).
    var peakInFlight: Int { state.withLock { $0.peakInFlight } }

    /// Blocks in flight now: sent and not yet recycled.
    var inFlight: Int { state.withLock { $0.inFlight } }

    /// Whether ``cancel()`` or ``fail(_:)`` stopped the hand-off (the hasher's result is then meaningless).
    var wasCancelled: Bool { state.withLock { $0.cancelled } }

    /// Why the receiver stopped, when it did (``fail(_:)``).
    var failure: (any Error)? { state.withLock { $0.failure } }

    /// Hands `block` to the hasher, first waiting while ``capacity`` blocks are in flight. After
    /// ``cancel()`` the block is dropped.
    func send(_ block: [UInt8]) async {
        let reserved = state.withLock { state -> Bool in
            guard !state.closed, state.inFlight >= capacity else {
                state.takeSlot()
                return true
            }
            return false
        }
        if !reserved {
            await withCheckedContinuation { (writer: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    guard !state.closed, state.inFlight >= capacity else {
                        state.takeSlot()
                        return true
                    }
                    // The slot is passed on by `recycle` (or the wait ended by `cancel`).
                    state.waitingWriter = writer
                    return false
                }
                if ready { writer.resume() }
            }
        }
        let hasher = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
            guard !state.closed else { return nil }
            if let hasher = state.hasher {
                state.hasher = nil
                return hasher
            }
            state.queue.append(block)
            return nil
        }
        hasher?.resume(returning: block)
    }

    /// The next block, in the order sent; `nil` once the hand-off is closed and empty, or cancelled.
    func next() async -> [UInt8]? {
        enum Next { case block([UInt8]), end, wait }
        func take(_ state: inout State) -> Next {
            if !state.queue.isEmpty { return .block(state.queue.removeFirst()) }
            return state.closed ? .end : .wait
        }
        switch state.withLock({ take(&$0) }) {
        case .block(let block): return block
        case .end: return nil
        case .wait: break
        }
        return await withCheckedContinuation { (hasher: CheckedContinuation<[UInt8]?, Never>) in
            let next = state.withLock { state -> Next in
                let next = take(&state)
                if case .wait = next { state.hasher = hasher }
                return next
            }
            switch next {
            case .block(let block): hasher.resume(returning: block)
            case .end: hasher.resume(returning: nil)
            case .wait: break
            }
        }
    }

    /// Gives a hashed block back: its slot passes to a waiting writer, its storage to ``spareBlock()``.
    func recycle(_ block: [UInt8]) {
        releaseSlot(keeping: block)
    }

    /// Gives a block's slot back without its storage: the block went on to another hand-off, whose
    /// receiver recycles it to this one's sender.
    func release() {
        releaseSlot(keeping: nil)
    }

    private func releaseSlot(keeping block: [UInt8]?) {
        let writer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let block, state.spare.count < capacity { state.spare.append(block) }
            if let writer = state.waitingWriter {
                // The slot passes straight to the waiting writer: `inFlight` stays as it is.
                state.waitingWriter = nil
                return writer
            }
            state.inFlight -= 1
            return nil
        }
        writer?.resume()
    }

    /// A recycled block to fill again (emptied, its capacity kept), or `nil` when none is spare.
    func spareBlock() -> [UInt8]? {
        guard var block = state.withLock({ $0.spare.popLast() }) else { return nil }
        block.removeAll(keepingCapacity: true)
        return block
    }

    /// No more blocks: the hasher gets the queued ones, then `nil`.
    func close() {
        let hasher = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
            state.closed = true
            defer { state.hasher = nil }
            return state.hasher
        }
        hasher?.resume(returning: nil)
    }

    /// Stops the hand-off because the receiver cannot go on: as ``cancel()``, and ``failure`` says why.
    func fail(_ error: any Error) {
        stop(failure: error)
    }

    /// Stops the hand-off: queued blocks are dropped, the hasher gets `nil`, a waiting writer returns.
    func cancel() {
        stop(failure: nil)
    }

    private func stop(failure: (any Error)?) {
        let (hasher, writer) = state.withLock { state in
            if let failure { state.failure = failure }
            state.closed = true
            state.cancelled = true
            state.queue.removeAll()
            defer {
                state.hasher = nil
                state.waitingWriter = nil
            }
            return (state.hasher, state.waitingWriter)
        }
        hasher?.resume(returning: nil)
        writer?.resume()
    }
}
