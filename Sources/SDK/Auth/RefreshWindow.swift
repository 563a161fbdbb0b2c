import Foundation

/// Allows at most `limit` refreshes within `interval`, so a server that keeps answering 401 to
/// fresh tokens cannot drive the client into a refresh loop.
public struct RefreshWindow: Sendable, Equatable {
    /// How many refreshes may start within ``interval``. Beyond that none starts: the current access
    /// token is used while it lasts, then calls fail with ``NetworkError/unauthorized(code:)`` and the
    /// code `refresh_window_exceeded`.
    public var limit: Int
    /// The sliding period over which refreshes are counted.
    public var interval: Duration
    private(set) var attempts: [Date] = []

    /// Creates a window of `limit` refreshes per `interval` (by default 5 in 30 seconds).
    public init(limit: Int = 5, interval: Duration = .seconds(30)) {
        self.limit = limit
        self.interval = interval
    }

    /// Records an attempt at `now` if the window allows one; returns whether it did.
    mutating func admit(at now: Date) -> Bool {
        let seconds = interval.timeInterval
        attempts.removeAll { now.timeIntervalSince($0) >= seconds }
        guard attempts.count < limit else { return false }
        attempts.append(now)
        return true
    }
}
