import GRDB

/// Checks made inside a write transaction, so that they hold for the write.
package enum AdminGuard {
    /// The role `userID` holds *now* (not when its token was checked); `nil` for a deleted account.
    /// Writes judge it by the rules of `UserRecord.Role+Permissions.swift`.
    package static func currentRole(_ db: Database, of userID: String) throws -> UserRecord.Role? {
        try UserRecord.fetchOne(db, key: userID)?.role
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
