/// The bookkeeping of one drain, as a small state machine: the engine does the I/O (lists the due
/// queues, sends each queue) and feeds each queue's outcomes in; the machine says what comes next and
/// keeps the report, the last error, the resources that sit the drain out and the conflict resends.
/// A pure value, tested without I/O.
struct DrainStateMachine: Sendable {
    /// Where the drain is.
    enum State: Sendable, Equatable {
        /// Between rounds: the next step lists the due queues again.
        case betweenRounds
        /// Sending the queues of a round; `progressed` once any item moved.
        case inRound(progressed: Bool)
        /// Done: halted, cancelled, or a round moved nothing.
        case finished
    }

    /// What the engine does after a queue or a round.
    enum Next: Sendable, Equatable {
        /// Send the round's next queue (or, after a round, list the due queues again).
        case goOn
        /// Stop draining.
        case stop
    }

    private(set) var state = State.betweenRounds
    private(set) var report = SyncReport()
    private(set) var lastError: SyncError?
    /// Resources told to retry later: they sit out the rest of this drain (their `Retry-After`
    /// holds even when the caller asked to ignore retry delays).
    private(set) var waiting: Set<ResourceKey> = []
    /// Conflict resends per item in this drain.
    private var resends: [Int64: Int] = [:]

    /// Items resent ``OutboxDecision/conflictResendLimit`` times in this drain: another conflict parks them.
    var resendsExhausted: Set<Int64> {
        Set(resends.filter { $0.value >= OutboxDecision.conflictResendLimit }.keys)
    }

    /// A round starts: the due queues were listed and some are due.
    mutating func roundStarted() {
        guard state == .betweenRounds else { return }
        state = .inRound(progressed: false)
    }

    /// The drain was cancelled before its next queue.
    mutating func cancelled() {
        lastError = .cancelled
        state = .finished
    }

    /// The store could not list the outbox: the drain ends with the store's error.
    mutating func storeFailed() {
        lastError = .store
        state = .finished
    }

    /// Nothing is due (any more): the drain ends.
    mutating func nothingDue() {
        state = .finished
    }

    /// Takes in one resource's items and their outcomes, in order (processing of a resource stops
    /// at its first item that pauses, so outcomes may be fewer than items). The outcomes are
    /// counted even after the drain halted: a resource already in flight when another one halted
    /// finishes its request, and what it sent is in the report.
    ///
    /// - Returns: ``Next/stop`` when an outcome halted the drain (now or before), else ``Next/goOn``.
    mutating func queueFinished(_ resource: ResourceKey, items: [OutboxItem], outcomes: [OutboxProcessor.Outcome]) -> Next {
        var moved = false
        var halted = false
        // After a halt, the first halt's error stays the drain's error.
        let open = state != .finished
        for (item, outcome) in zip(items, outcomes) {
            switch outcome {
            case .sent: report.sent += 1; moved = true
            case .deadLettered: report.deadLettered += 1; moved = true
            case .parked: report.conflictsParked += 1; moved = true
            case .resend: resends[item.id, default: 0] += 1; moved = true
            case .gone, .waitsForPrerequisite: moved = true
            case .retryLater(let error): if open { lastError = error }; waiting.insert(resource)
            case .halt(let error): if open { lastError = error }; halted = true
            }
        }
        guard case .inRound(let progressed) = state else { return .stop }
        state = halted ? .finished : .inRound(progressed: progressed || moved)
        return halted ? .stop : .goOn
    }

    /// The round's queues are all processed.
    ///
    /// - Returns: ``Next/goOn`` (list the due queues again) when the round moved an item, else
    ///   ``Next/stop``: what is left waits for a retry, a prerequisite or the user.
    mutating func roundFinished() -> Next {
        guard case .inRound(let progressed) = state, progressed else {
            state = .finished
            return .stop
        }
        state = .betweenRounds
        return .goOn
    }
}
