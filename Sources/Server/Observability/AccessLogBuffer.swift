import Synchronization

/// The last entries of the access log, kept in memory (a ring of fixed capacity) for the dev console.
public final class AccessLogBuffer: Sendable {
    private struct Ring {
        var entries: [AccessLogEntry] = []
        var next = 0
    }

    /// How many entries are kept; older ones are overwritten.
    public let capacity: Int
    private let ring = Mutex(Ring())

    /// - Parameter capacity: At least 1; the server keeps 500.
    public init(capacity: Int = 500) {
        self.capacity = max(1, capacity)
    }

    func append(_ entry: AccessLogEntry) {
        ring.withLock { ring in
            if ring.entries.count < capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.next] = entry
            }
            ring.next = (ring.next + 1) % capacity
        }
    }

    /// The kept entries, oldest first.
    public var entries: [AccessLogEntry] {
        ring.withLock { ring in
            guard ring.entries.count == capacity else { return ring.entries }
            return Array(ring.entries[ring.next...] + ring.entries[..<ring.next])
        }
    }
}
