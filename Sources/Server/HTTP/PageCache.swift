import EduGoServerStore
import Foundation

/// Encoded list pages of one tenant, kept while the data they were read from stands.
///
/// A list page depends only on the tenant's synced rows (courses, lessons, enrollments, progress
/// and profiles), and every committed change of those writes a row of the change log in its own
/// transaction. The store knows the cache as its tenant's `ChangeDependentCache`: its commit
/// observer empties it when a transaction that logged a change commits, before the write returns
/// to its caller, and a restore empties it, so a page older than a write whose answer a client
/// has seen is never served; a page read before such a commit cannot be stored after it
/// (`EpochCache`). ``TenantRegistry`` makes one per tenant id, kept with the tenant's caches.
///
/// Like the store's live-session cache it trusts that this process is the only writer of the tenant's file,
/// which the server's data directory assumes throughout. Bounded by pages and by bytes.
typealias PageCache = EpochCache<String, EncodedPage>

/// An encoded list page and its entity tag.
struct EncodedPage: Sendable {
    let body: Data
    let entityTag: String

    init(body: Data, entityTag: String) {
        self.body = body
        self.entityTag = entityTag
    }
}

extension EpochCache where Key == String, Value == EncodedPage {
    /// How many pages a tenant's cache keeps unless configured otherwise.
    static var defaultCapacity: Int { 512 }

    /// A cache of at most `capacity` pages (0 keeps none, so every list is read from SQLite) and
    /// `byteCapacity` bytes of them.
    convenience init(capacity: Int = defaultCapacity, byteCapacity: Int = 8 << 20) {
        self.init(capacity: capacity, costCapacity: byteCapacity, cost: { $0.body.count })
    }
}
