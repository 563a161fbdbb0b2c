/// A bound on the bcrypt work running at once, server-wide.
///
/// Each bcrypt holds a thread for a quarter of a second at cost 12, whoever asks for it; the
/// per-account and per-address budgets bound one client, this bounds all of them together. Up to
/// `slots` hashes run at once and up to `queue` more wait their turn in arrival order; past that
/// a request is refused at once (`503 hashing_busy` with `Retry-After`) instead of piling up.
actor PasswordHashingGate {
    private let slots: Int
    private let queue: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(slots: Int, queue: Int) {
        self.slots = max(1, slots)
        self.queue = max(0, queue)
    }

    /// Takes a slot, waiting for one if the queue has room.
    /// - Returns: `false` when every slot is taken and the queue is full; nothing was taken then.
    func enter() async -> Bool {
        if running < slots {
            running += 1
            return true
        }
        guard waiting.count < queue else { return false }
        // The slot is handed over by `leave()`, so `running` already counts this caller.
        await withCheckedContinuation { waiting.append($0) }
        return true
    }

    /// Whether a caller waits for a slot.
    var hasWaiters: Bool { !waiting.isEmpty }

    /// Gives a slot back: to the longest waiter if there is one.
    func leave() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
