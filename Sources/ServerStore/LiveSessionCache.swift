import EduGoGuarded
import GRDB

/// The users of recently authenticated live sessions, so that an authenticated request does not
/// open a read transaction only to learn that its session still stands.
///
/// The cache is exact, not eventually right: ``Invalidator`` watches every transaction of the
/// tenant's writer and empties the cache when one that changed `users` or `sessions` commits,
/// before the write returns to its caller. Logout, refresh-token reuse, a password reset, a role
/// change and a deleted user therefore take effect on the very next request.
///
/// A read that began before such a commit cannot put its older answer back afterwards: a lookup
/// that misses returns the cache's epoch, every invalidation moves the epoch on, and
/// ``store(_:for:readAt:)`` keeps an answer only while the epoch it was read under is current.
/// (The epoch is taken before the read's snapshot, and a commit moves the epoch only after it is
/// visible, so an answer stored under a current epoch was read after the last invalidating commit.)
///
/// It is bounded: when it holds `capacity` sessions it starts again empty.
package final class LiveSessionCache: Sendable {
    package struct Key: Hashable, Sendable {
        package var sessionID: String
        package var userID: String

        package init(sessionID: String, userID: String) {
            self.sessionID = sessionID
            self.userID = userID
        }
    }

    /// What ``lookup(_:)`` found.
    package enum Lookup: Sendable {
        case live(UserRecord)
        /// Not cached: read the database, then offer the answer with this epoch.
        case miss(epoch: UInt64)
    }

    private struct State {
        package var epoch: UInt64 = 0
        package var users: [Key: UserRecord] = [:]
    }

    private let state = Guarded(State())
    private let capacity: Int

    package init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    package func lookup(_ key: Key) -> Lookup {
        state.withLock { state in
            if let user = state.users[key] { return .live(user) }
            return .miss(epoch: state.epoch)
        }
    }

    /// Keeps `user` for `key` unless `users` or `sessions` changed since `epoch` was handed out.
    package func store(_ user: UserRecord, for key: Key, readAt epoch: UInt64) {
        state.withLock { state in
            guard state.epoch == epoch else { return }
            if state.users.count >= capacity { state.users.removeAll(keepingCapacity: true) }
            state.users[key] = user
        }
    }

    /// Forgets every session and moves the epoch on.
    package func invalidate() {
        state.withLock { state in
            state.epoch &+= 1
            state.users.removeAll(keepingCapacity: true)
        }
    }

    /// Empties the cache when a transaction that changed `users` or `sessions` commits.
    ///
    /// Installed on the tenant's writer for the database's lifetime; GRDB calls it on the
    /// writer's serial queue, which is what makes its one flag safe without a lock.
    package final class Invalidator: TransactionObserver {
        private let cache: LiveSessionCache
        private var changed = false

        package init(_ cache: LiveSessionCache) {
            self.cache = cache
        }

        package func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
            switch eventKind {
            case .insert(let table), .delete(let table), .update(let table, _):
                table == "users" || table == "sessions"
            }
        }

        package func databaseDidChange(with event: DatabaseEvent) {
            changed = true
        }

        package func databaseDidCommit(_ db: Database) {
            if changed { cache.invalidate() }
            changed = false
        }

        package func databaseDidRollback(_ db: Database) {
            changed = false
        }
    }
}
