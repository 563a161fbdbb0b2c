import EduGoGuarded
import Foundation
import GRDB

/// Encoded list pages of one tenant, kept while the data they were read from stands.
///
/// A list page depends only on the tenant's synced rows (courses, lessons, enrollments, progress
/// and profiles), and every committed change of those writes a row of the change log in its own
/// transaction (``ChangeLog``). ``Invalidator`` watches the tenant's writer and empties the cache
/// when a transaction that logged a change commits, before the write returns to its caller, so a
/// page older than a write whose answer a client has seen is never served.
///
/// A page read before such a commit cannot be stored after it: ``lookup(_:)`` hands out the
/// cache's epoch on a miss, every invalidation moves it on, and ``store(_:for:readAt:)`` keeps a
/// page only while the epoch it was read under is current (the epoch is taken before the read's
/// snapshot, and a commit moves it only once visible).
///
/// Like ``LiveSessionCache`` it trusts that this process is the only writer of the tenant's file,
/// which the server's data directory assumes throughout. It is bounded: past `capacity` pages or
/// `byteCapacity` bytes it starts again empty.
package final class PageCache: Sendable {
    /// An encoded page and its entity tag.
    package struct Page: Sendable {
        package let body: Data
        package let entityTag: String

        package init(body: Data, entityTag: String) {
            self.body = body
            self.entityTag = entityTag
        }
    }

    package enum Lookup: Sendable {
        case hit(Page)
        /// Not cached: read the page, then offer it with this epoch.
        case miss(epoch: UInt64)
    }

    private struct State {
        package var epoch: UInt64 = 0
        package var pages: [String: Page] = [:]
        package var bytes = 0
    }

    private let state = Guarded(State())
    private let capacity: Int
    private let byteCapacity: Int

    /// How many pages a tenant's cache keeps unless configured otherwise.
    package static let defaultCapacity = 512

    /// - Parameter capacity: The most pages kept; 0 keeps none, so every list is read from SQLite.
    package init(capacity: Int = defaultCapacity, byteCapacity: Int = 8 << 20) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    package func lookup(_ key: String) -> Lookup {
        state.withLock { state in
            if let page = state.pages[key] { return .hit(page) }
            return .miss(epoch: state.epoch)
        }
    }

    /// Keeps `page` for `key` unless a change committed since `epoch` was handed out.
    package func store(_ page: Page, for key: String, readAt epoch: UInt64) {
        state.withLock { state in
            guard state.epoch == epoch, capacity > 0 else { return }
            if state.pages.count >= capacity || state.bytes + page.body.count > byteCapacity {
                state.pages.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.pages[key] = page
            state.bytes += page.body.count
        }
    }

    /// Forgets every page and moves the epoch on.
    package func invalidate() {
        state.withLock { state in
            state.epoch &+= 1
            state.pages.removeAll(keepingCapacity: true)
            state.bytes = 0
        }
    }

    /// Empties the cache when a transaction that logged a change commits.
    ///
    /// Installed on the tenant's writer for the database's lifetime; GRDB calls it on the
    /// writer's serial queue, which is what makes its one flag safe without a lock.
    package final class Invalidator: TransactionObserver {
        private let cache: PageCache
        private var changed = false

        package init(_ cache: PageCache) {
            self.cache = cache
        }

        package func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
            if case .insert(let table) = eventKind { return table == "changes" }
            return false
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
