import GRDB

/// The queries of one tenant's data, each a method named for what it does and run in one
/// transaction that leaves the data valid (the GRDB `AppDatabase` pattern).
///
/// This is the store boundary: route handlers parse their request, call one store method and
/// encode the answer. No SQL and no database writer exist outside this folder. Methods run a
/// fixed number of statements whatever the page size.
package struct TenantStore: Sendable {
    /// Used by the store's own methods only (its extensions live in other files of this folder,
    /// so Swift's `private` cannot say it).
    package let database: TenantDatabase

    package init(_ database: TenantDatabase) {
        self.database = database
    }

    package var tenantID: TenantID { database.tenantID }

    /// Answers whether the database can be read.
    package func isReachable() async -> Bool {
        await database.isReachable()
    }

    /// How many sessions are live (not revoked) in this tenant.
    package func liveSessionCount() async throws -> Int {
        try await database.writer.read { db in try SessionRecord.filter(Column("revoked_at") == nil).fetchCount(db) }
    }
}
