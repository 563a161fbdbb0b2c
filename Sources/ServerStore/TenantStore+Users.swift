import Foundation
import GRDB

/// What a change to an account asks for: each member `nil` when the body left it out.
package struct UserChanges: Sendable {
    package var firstName: String?
    package var lastName: String?
    package var email: String?
    package var role: UserRecord.Role?

    package init(firstName: String? = nil, lastName: String? = nil, email: String? = nil, role: UserRecord.Role? = nil) {
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.role = role
    }
}

/// What a self-registration did (``TenantStore/register(_:verificationToken:policy:)``).
package enum Registration: Sendable {
    /// The registration was recorded on its verification token, for a new unverified account or
    /// for the pending one holding the email; `otherPending` other registrations of the address
    /// are still waiting for verification.
    case created(UserRecord, otherPending: Int)
    /// A verified account holds the email already; nothing was written.
    case exists(holderEmail: String)
}

extension TenantStore {
    /// A page of the tenant's accounts, optionally of one role and matching a search, oldest first
    /// (``UserListQuery`` writes the statements), for a teacher or admin (students list none).
    package func userPage(
        role: UserRecord.Role?, query: String?, pagination: Pagination, visibleTo identity: Identity
    ) async throws -> ListPage<UserRecord> {
        guard identity.role.listsUsers else { throw StoreError.forbidden(.listUsers) }
        let list = UserListQuery(
            role: role, search: query, after: pagination.after, limit: pagination.limit, offset: pagination.offset)
        // Taken before the read's snapshot: a restore after it makes the total this read counts unkept.
        let epoch = database.listTotals.epoch
        return try await database.read { db in
            let total = try self.total(db, list.count, unless: pagination, epoch: epoch)
            let page = list.page
            let rows = try Array(
                Row.fetchCursor(db.cachedStatement(sql: page.sql), arguments: page.arguments).map { row in
                    (item: try UserRecord(row: row), key: PageCursor(timestamp: row["created_at"], id: row["id"]))
                })
            return ListPage(rows: rows, pagination: pagination, total: total)
        }
    }

    /// The account, if `identity` may see it: admins and teachers see everyone in the tenant,
    /// students only themselves (anyone else is not found).
    package func user(_ id: String, visibleTo identity: Identity) async throws -> UserRecord {
        try await database.read { db in try Self.fetchVisibleUser(db, id: id, identity: identity) }
    }

    /// Inserts the account `makeUser` makes, which an admin (`identity`) creates for someone;
    /// ``StoreError/emailTaken`` when the email exists in this tenant. The account is made (its
    /// password hashed) only for a caller whose role allows it, and the role is read again in the
    /// write (it may have been taken away meanwhile).
    package func createAccount(by identity: Identity, _ makeUser: () async throws -> UserRecord) async throws -> UserRecord {
        guard identity.role.managesAccounts else { throw StoreError.forbidden(.createUsers) }
        let user = try await makeUser()
        try await Self.mappingEmailTaken {
            try await database.writer.write { db in
                guard try AdminGuard.currentRole(db, of: identity.userID)?.managesAccounts == true else {
                    throw StoreError.forbidden(.createUsers)
                }
                if try UserRecord.filter(UserRecord.Columns.emailKey == user.emailKey).fetchCount(db) > 0 {
                    throw StoreError.emailTaken
                }
                try user.insert(db)
            }
        }
        return user
    }

    /// Self-registration, in one transaction. A verified holder of the email (or one owning
    /// courses) is left alone. Otherwise the registration is stored on its own verification token
    /// (the password hash and names it chose), for the pending unverified account holding the
    /// email, or for `user`, inserted here when there is none.
    ///
    /// Registrations of one address neither replace nor block each other: verifying a token sets
    /// exactly that token's registration and ends the others (``verifyEmail(tokenHash:now:)``).
    /// So whoever registered first cannot squat the address, and whoever registered last cannot
    /// change what an earlier registrant's mail activates.
    ///
    /// - Parameters:
    ///   - user: The account to create when the address has none.
    ///   - verificationToken: The token to mail, carrying this registration; its `userId` is
    ///     replaced by the pending account's when there is one.
    ///   - policy: When the tenant is due for pruning (``SessionPruning``).
    package func register(
        _ user: UserRecord, verificationToken: EmailTokenRecord, policy: SessionPolicy
    ) async throws -> Registration {
        try await Self.mappingEmailTaken {
            try await database.writer.write { db -> Registration in
                let now = verificationToken.createdAt
                try SessionPruning.pruneIfDue(db, now: now, policy: policy)
                var token = verificationToken
                guard let existing = try UserRecord.filter(UserRecord.Columns.emailKey == user.emailKey).fetchOne(db)
                else {
                    try user.insert(db)
                    try token.insert(db)
                    return .created(user, otherPending: 0)
                }
                let ownsCourses = try CourseRecord.filter(CourseRecord.Columns.teacherId == existing.id).fetchCount(db) > 0
                if existing.emailVerified || ownsCourses { return .exists(holderEmail: existing.email) }
                let pending = try Self.pendingRegistrations(db, of: existing, now: now).count
                token.userId = existing.id
                try token.insert(db)
                return .created(existing, otherPending: pending)
            }
        }
    }

    /// The distinct registrations of `user` whose verification tokens are still usable, newest
    /// first, each as one of its tokens.
    package static func pendingRegistrations(_ db: Database, of user: UserRecord, now: Date) throws -> [EmailTokenRecord] {
        let tokens = try EmailTokenRecord.fetchAll(
            db,
            sql: """
                SELECT * FROM email_tokens
                WHERE user_id = ? AND kind = ? AND used_at IS NULL AND expires_at > ?
                ORDER BY registered_at DESC, created_at DESC
                """,
            arguments: [user.id, EmailTokenRecord.Kind.verifyEmail.rawValue, now])
        var seen = Set<String>()
        return tokens.filter { seen.insert($0.passwordHash ?? user.passwordHash).inserted }
    }

    /// Changes an account, in one transaction. Self: names only. Admin: names, email and role of
    /// anyone else in the tenant (``Identity/managesAccount(_:)``). The caller's admin role is
    /// re-read here (a role read at authentication may have been taken away since); a teacher of
    /// courses stays a teacher; the tenant keeps one admin; emails stay unique.
    package func updateUser(
        _ id: String, by identity: Identity, changes: UserChanges, base: VersionPrecondition, now: Date
    ) async throws -> UserRecord {
        try await Self.mappingEmailTaken {
            try await database.writer.write { db -> UserRecord in
                var user = try Self.fetchVisibleUser(db, id: id, identity: identity)
                guard identity.role == .admin || user.id == identity.userID else {
                    throw StoreError.forbidden(.changeOthersProfile)
                }
                if user.id != identity.userID, try AdminGuard.currentRole(db, of: identity.userID)?.managesAccounts != true {
                    throw StoreError.forbidden(.changeOthersProfile)
                }
                if user.id == identity.userID, changes.role != nil || changes.email != nil {
                    throw StoreError.forbidden(.changeOwnAccount)
                }
                try base.check(currentVersion: user.version, current: user)
                let before = user
                if let firstName = changes.firstName { user.firstName = firstName }
                if let lastName = changes.lastName { user.lastName = lastName }
                if let role = changes.role, role != user.role {
                    if role == .student,
                        try CourseRecord.filter(CourseRecord.Columns.teacherId == user.id).fetchCount(db) > 0
                    {
                        throw StoreError.conflict(.teacherOwnsCoursesDemoted)
                    }
                    if user.role == .admin { try AdminGuard.keepOneAdmin(db, losing: user.id) }
                    user.role = role
                }
                if let email = changes.email.map(EmailAddress.normalized),
                    UserRecord.emailKey(email) != user.emailKey || email != user.email
                {
                    let key = UserRecord.emailKey(email)
                    let taken = try UserRecord.filter(UserRecord.Columns.emailKey == key && UserRecord.Columns.id != user.id)
                        .fetchCount(db) > 0
                    if taken { throw StoreError.emailTaken }
                    user.email = email
                }
                if user.firstName != before.firstName || user.lastName != before.lastName || user.role != before.role
                    || user.email != before.email
                {
                    user.refreshDerivedColumns()
                    user.version += 1
                    user.updatedAt = now
                    try user.update(db)
                }
                return user
            }
        }
    }

    /// Deletes an account (admins only, re-read in this transaction): never one's own, never a
    /// teacher who still owns courses, never the tenant's last admin.
    package func deleteUser(_ id: String, by identity: Identity) async throws {
        try await database.writer.write { db in
            let user = try Self.fetchVisibleUser(db, id: id, identity: identity)
            guard try AdminGuard.currentRole(db, of: identity.userID)?.managesAccounts == true else {
                throw StoreError.forbidden(.deleteUsers)
            }
            guard user.id != identity.userID else {
                throw StoreError.conflict(.cannotDeleteSelf)
            }
            guard try CourseRecord.filter(CourseRecord.Columns.teacherId == user.id).fetchCount(db) == 0 else {
                throw StoreError.conflict(.teacherOwnsCoursesDeleted)
            }
            if user.role == .admin { try AdminGuard.keepOneAdmin(db, losing: user.id) }
            try user.delete(db)
        }
    }

    package static func fetchVisibleUser(_ db: Database, id: String, identity: Identity) throws -> UserRecord {
        guard identity.role != .student || id == identity.userID, let user = try UserRecord.fetchOne(db, key: id) else {
            throw StoreError.notFound(.user)
        }
        return user
    }

    /// Maps the users' email uniqueness violation, and only it, to ``StoreError/emailTaken``; every other
    /// constraint error stays an internal error (answered 500 and logged).
    package static func mappingEmailTaken<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as DatabaseError where isEmailUniqueViolation(error) {
            throw StoreError.emailTaken
        }
    }

    package static func isEmailUniqueViolation(_ error: DatabaseError) -> Bool {
        error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE && (error.message ?? "").contains("users.email_key")
    }
}
