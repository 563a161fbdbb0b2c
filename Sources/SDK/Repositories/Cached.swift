import Foundation

/// A value read from the local store, with how fresh it is and whether local writes to it are
/// still waiting to reach the server.
public struct Cached<Value: Sendable>: Sendable {
    public var value: Value
    /// Local writes not yet confirmed by the server are included in `value`.
    public var hasPendingWrites: Bool
    /// When the server's data underneath was fetched (`nil` when never).
    public var fetchedAt: Date?

    public init(value: Value, hasPendingWrites: Bool, fetchedAt: Date?) {
        self.value = value
        self.hasPendingWrites = hasPendingWrites
        self.fetchedAt = fetchedAt
    }

    /// Seconds since the data was fetched, relative to `now`.
    public func age(now: Date = Date()) -> TimeInterval? {
        fetchedAt.map { now.timeIntervalSince($0) }
    }
}

extension Cached: Equatable where Value: Equatable {}
