import Foundation
import GRDB

/// Creates accounts: one place for the email-uniqueness rule and password hashing.
struct AccountWriter {
    let deps: Dependencies

    /// What a self-registration did.
    enum Registration: Sendable {
        /// A new, unverified account (replacing a pending unverified one with the same email).
        case created(UserRecord)
        /// A verified account holds the email already; nothing was written.
        case exists(holderEmail: String)
    }

    /// Inserts a user; answers `409 email_taken` when the email exists in this tenant.
    func createAccount(
        in tenant: TenantDatabase, email: String, password: String, firstName: String, lastName: String,
        role: UserRecord.Role, verified: Bool
    ) async throws -> UserRecord {
        let hash = await deps.passwords.hash(password)
        let user = newUser(email: email, passwordHash: hash, firstName: firstName, lastName: lastName, role: role, verified: verified)
        try await Self.mappingEmailTaken {
            try await tenant.writer.write { [user] db in
                if try UserRecord.filter(UserRecord.Columns.emailKey == user.emailKey).fetchCount(db) > 0 {
                    throw APIError.emailTaken
                }
                try user.insert(db)
            }
        }
        return user
    }

    /// Self-registration, in one transaction: a verified holder of the email is left alone; a
    /// pending *unverified* account with the email is replaced (whoever registered it first
    /// cannot squat the address); otherwise a new unverified student is inserted together with
    /// its verification token.
    func register(
        in tenant: TenantDatabase, email: String, passwordHash: String, firstName: String, lastName: String,
        verificationTokenHash: String, tokenExpiresAt: Date
    ) async throws -> Registration {
        let user = newUser(
            email: email, passwordHash: passwordHash, firstName: firstName, lastName: lastName, role: .student,
            verified: false)
        let now = user.createdAt
        return try await Self.mappingEmailTaken {
            try await tenant.writer.write { [user] db -> Registration in
                if let existing = try UserRecord.filter(UserRecord.Columns.emailKey == user.emailKey).fetchOne(db) {
                    let ownsCourses = try CourseRecord.filter(CourseRecord.Columns.teacherId == existing.id).fetchCount(db) > 0
                    if existing.emailVerified || ownsCourses { return .exists(holderEmail: existing.email) }
                    try existing.delete(db)  // its tokens and sessions go with it (ON DELETE CASCADE)
                }
                try user.insert(db)
                try EmailTokenRecord(
                    tokenHash: verificationTokenHash, userId: user.id, kind: .verifyEmail, createdAt: now,
                    expiresAt: tokenExpiresAt
                ).insert(db)
                return .created(user)
            }
        }
    }

    private func newUser(
        email: String, passwordHash: String, firstName: String, lastName: String, role: UserRecord.Role, verified: Bool
    ) -> UserRecord {
        let now = deps.now
        var user = UserRecord(
            id: RecordID.make(), email: EmailAddress.normalized(email), emailKey: "", passwordHash: passwordHash,
            firstName: firstName.trimmingCharacters(in: .schemaWhitespace),
            lastName: lastName.trimmingCharacters(in: .schemaWhitespace), role: role, emailVerified: verified,
            searchText: "", version: 1, createdAt: now, updatedAt: now)
        user.refreshDerivedColumns()
        return user
    }

    /// Maps the users' email uniqueness violation, and only it, to `409 email_taken`; every other
    /// constraint error stays an internal error (answered 500 and logged).
    static func mappingEmailTaken<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as DatabaseError where isEmailUniqueViolation(error) {
            throw APIError.emailTaken
        }
    }

    static func isEmailUniqueViolation(_ error: DatabaseError) -> Bool {
        error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE && (error.message ?? "").contains("users.email_key")
    }
}

extension APIError {
    static let emailTaken = APIError(
        .conflict, code: "email_taken", detail: "An account with this email already exists.")
}
