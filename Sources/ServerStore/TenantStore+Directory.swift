import Foundation
import GRDB

/// What the dev console reads of a tenant's accounts (one read transaction each).
extension TenantStore {
    /// How many accounts the tenant has.
    package func userCount() async throws -> Int {
        try await database.read { db in try UserRecord.fetchCount(db) }
    }

    /// A page of the tenant's accounts, newest first, and how many there are in all.
    package func userPage(offset: Int, limit: Int) async throws -> (items: [UserRecord], total: Int) {
        try await database.read { db in
            let total = try UserRecord.fetchCount(db)
            let items = try UserRecord.order(UserRecord.Columns.createdAt.desc, UserRecord.Columns.id)
                .limit(limit, offset: offset).fetchAll(db)
            return (items, total)
        }
    }
}
