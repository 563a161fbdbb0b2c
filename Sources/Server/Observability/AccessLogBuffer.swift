import EduGoGuarded

/// The last entries of the access log, kept in memory (a ring of fixed capacity) for the dev console.
///
/// Each kept entry gets the next ``AccessLogEntry/sequence`` number, so a reader that remembers the
/// last number it saw can ask for what came after it (`GET /__dev/requests?after=`).
public final class AccessLogBuffer: Sendable {
    /// An entry with the monotonic instant it was kept at (the server's wall clock can be moved in
    /// dev mode; rates and windows are measured on this one).
    struct Kept: Sendable {
        var entry: AccessLogEntry
        var instant: ContinuousClock.Instant
    }

    private struct Ring {
        var kept: [Kept] = []
        var next = 0
        var appended = 0
    }

    /// How many entries are kept; older ones are overwritten.
    public let capacity: Int
    private let ring = Guarded(Ring())

    /// - Parameter capacity: At least 1; the server keeps 500.
    public init(capacity: Int = 500) {
        self.capacity = max(1, capacity)
    }

    func append(_ entry: AccessLogEntry, at instant: ContinuousClock.Instant = .now) {
        ring.withLock { ring in
            ring.appended += 1
            var entry = entry
            entry.sequence = ring.appended
            let kept = Kept(entry: entry, instant: instant)
            if ring.kept.count < capacity {
                ring.kept.append(kept)
            } else {
                ring.kept[ring.next] = kept
            }
            ring.next = (ring.next + 1) % capacity
        }
    }

    /// The kept entries, oldest first.
    public var entries: [AccessLogEntry] {
        snapshot().kept.map(\.entry)
    }

    /// The kept entries with their instants, oldest first, and the sequence number of the newest
    /// entry ever kept (0 before the first), read together.
    func snapshot() -> (kept: [Kept], latestSequence: Int) {
        ring.withLock { ring in
            let ordered = ring.kept.count == capacity ? Array(ring.kept[ring.next...] + ring.kept[..<ring.next]) : ring.kept
            return (ordered, ring.appended)
        }
    }
}
