import GRDB

/// The queries of one tenant's data, each a method named for what it does and run in one
/// transaction (the GRDB `AppDatabase` pattern).
///
/// This is the store boundary the route handlers move behind, one resource at a time: a handler
/// parses its request, calls one store method and encodes the answer. Methods here run a fixed
/// number of statements whatever the page size.
struct TenantStore: Sendable {
    /// Used by the store's own methods only (its extensions live in other files of this folder,
    /// so Swift's `private` cannot say it).
    let database: TenantDatabase

    init(_ database: TenantDatabase) {
        self.database = database
    }
}
