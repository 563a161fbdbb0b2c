import Foundation

/// A value read from the local store, with how fresh it is and whether local writes to it are
/// still waiting to reach the server.
public struct Cached<Value: Sendable>: Sendable {
    public var value: Value
    /// Local writes not yet confirmed by the server are included in `value`.
    public var hasPendingWrites: Bool
    /// When the server's data underneath was fetched (`nil` when never).
    public var fetchedAt: Date?
    /// Why the last refresh could not bring the server's current data (`nil` when it did, or
    /// none failed yet): offline, the server unavailable, or timed out.
    public var staleReason: StaleReason?

    public init(value: Value, hasPendingWrites: Bool, fetchedAt: Date?, staleReason: StaleReason? = nil) {
        self.value = value
        self.hasPendingWrites = hasPendingWrites
        self.fetchedAt = fetchedAt
        self.staleReason = staleReason
    }

    /// This value, marked with why it may be stale.
    func marked(_ reason: StaleReason?) -> Cached {
        var copy = self
        copy.staleReason = reason
        return copy
    }

    /// Seconds since the data was fetched, relative to `now`.
    public func age(now: Date = Date()) -> TimeInterval? {
        fetchedAt.map { now.timeIntervalSince($0) }
    }
}

extension Cached: Equatable where Value: Equatable {}
