/// The users of recently authenticated live sessions, so that an authenticated request does not
/// open a read transaction only to learn that its session still stands.
///
/// The cache is exact, not eventually right: the tenant's ``CommitObserver`` empties it when a
/// transaction that changed `users` or `sessions` commits, before the write returns to its caller.
/// Logout, refresh-token reuse, a password reset, a role change and a deleted user therefore take
/// effect on the very next request; a read that began before such a commit cannot put its older
/// answer back afterwards (``EpochCache``).
package typealias LiveSessionCache = EpochCache<LiveSessionKey, UserRecord>

/// A live session's cache key: the session and the user its token names.
package struct LiveSessionKey: Hashable, Sendable {
    package var sessionID: String
    package var userID: String

    package init(sessionID: String, userID: String) {
        self.sessionID = sessionID
        self.userID = userID
    }
}

extension EpochCache where Key == LiveSessionKey, Value == UserRecord {
    /// A cache of at most `capacity` sessions.
    package convenience init(capacity: Int = 4_096) {
        self.init(capacity: capacity, costCapacity: .max, cost: { _ in 0 })
    }
}
