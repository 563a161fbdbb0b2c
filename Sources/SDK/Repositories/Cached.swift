import Foundation

/// A value read from the local store, with how fresh it is and whether local writes to it are
/// still waiting to reach the server: what reads return and observations deliver (the metadata
/// of a Firestore snapshot).
public struct Cached<Value: Sendable>: Sendable {
    /// The value to show: the server's last known state with this device's waiting writes applied.
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
    /// (``staleReason``). A successful refresh makes it `false`, and so does a pull that reached
    /// the end of the change feed for everything the feed carries (it confirmed what it did not resend).
    public var isFromCache: Bool

    /// Wraps a value with what is known about its freshness. The repositories make these; build
    /// your own for previews and tests.
    ///
    /// - Parameters:
    ///   - value: the value to show.
    ///   - hasPendingWrites: whether `value` includes local writes the server has not confirmed.
    ///   - fetchedAt: when the server's data underneath was fetched (`nil` when never).
    ///   - staleReason: why the last refresh failed, if it did.
    ///   - isFromCache: whether the server has not confirmed the value since the session opened.
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
    /// `confirmedAt` is when the server last confirmed it without sending it again (a pull that
    /// reached the end of the change feed), which counts like a fetch.
    func marked(_ reason: StaleReason?, openedAt: Date, confirmedAt: Date? = nil) -> Cached {
        var copy = self
        copy.staleReason = reason
        let lastSeen = [fetchedAt, confirmedAt].compactMap { $0 }.max()
        copy.isFromCache = reason != nil || (lastSeen.map { $0 < openedAt } ?? true)
        return copy
    }

    /// How old the server's data underneath is, to show "updated 5 minutes ago".
    ///
    /// - Parameter now: the moment to measure from (pass your own clock in tests).
    /// - Returns: seconds since ``fetchedAt``, or `nil` when the data was never fetched.
    public func age(now: Date = Date()) -> TimeInterval? {
        fetchedAt.map { now.timeIntervalSince($0) }
    }
}

extension Cached: Equatable where Value: Equatable {}
