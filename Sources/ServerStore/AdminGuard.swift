import GRDB

/// Checks made inside a write transaction, so that they hold for the write.
package enum AdminGuard {
    /// Whether `userID` is an admin *now* (not when its token was checked).
    package static func isAdmin(_ db: Database, userID: String) throws -> Bool {
        try UserRecord.fetchOne(db, key: userID)?.role == .admin
    }

    /// Throws ``StoreError/Conflict/lastAdmin`` when `userID` is the tenant's only admin.
    package static func keepOneAdmin(_ db: Database, losing userID: String) throws {
        let others = try UserRecord.filter(UserRecord.Columns.role == UserRecord.Role.admin.rawValue)
            .filter(UserRecord.Columns.id != userID).fetchCount(db)
        if others == 0 {
            throw StoreError.conflict(.lastAdmin)
        }
    }
}
