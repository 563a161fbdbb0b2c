import Foundation

/// A value read from the local store, with how fresh it is and whether local writes to it are
/// still waiting to reach the server: what reads return and observations deliver (the metadata
/// of a Firestore snapshot).
public struct Cached<Value: Sendable>: Sendable {
    public var value: Value
    /// Local writes not yet confirmed by the server are included in `value`.
    public var hasPendingWrites: Bool
    /// When the server's data underneath was fetched (`nil` when never).
    public var fetchedAt: Date?
    /// Why the last refresh could not bring the server's current data (`nil` when it did, or
    /// none failed yet): offline, the server unavailable, or timed out.
    public var staleReason: StaleReason?
    /// Whether the server has not confirmed the value since the session opened: nothing was
    /// fetched yet, it was fetched by an earlier run, or the last refresh failed
    /// (``staleReason``). A successful refresh makes it `false`.
    public var isFromCache: Bool

    public init(
        value: Value, hasPendingWrites: Bool, fetchedAt: Date?, staleReason: StaleReason? = nil, isFromCache: Bool = true
    ) {
        self.value = value
        self.hasPendingWrites = hasPendingWrites
        self.fetchedAt = fetchedAt
        self.staleReason = staleReason
        self.isFromCache = isFromCache
    }

    /// This value as seen by a session opened at `openedAt`, marked with why it may be stale.
    func marked(_ reason: StaleReason?, openedAt: Date) -> Cached {
        var copy = self
        copy.staleReason = reason
        copy.isFromCache = reason != nil || (fetchedAt.map { $0 < openedAt } ?? true)
        return copy
    }

    /// Seconds since the data was fetched, relative to `now`.
    public func age(now: Date = Date()) -> TimeInterval? {
        fetchedAt.map { now.timeIntervalSince($0) }
    }
}

extension Cached: Equatable where Value: Equatable {}
