import EduGoServerStore
import Foundation

/// Makes accounts: one place for hashing passwords and normalising what is stored; the store
/// keeps emails unique.
struct AccountWriter {
    let deps: Dependencies

    /// Inserts a verified user that `identity` (an admin) creates; answers `409 email_taken` when
    /// the email exists in this tenant. The password is hashed only once the store found the
    /// caller allowed.
    func createAccount(
        by identity: Identity, email: String, password: String, firstName: String, lastName: String,
        role: UserRecord.Role
    ) async throws -> UserRecord {
        try await identity.store.createAccount(by: identity) {
            let hash = try await deps.passwords.hash(password)
            return newUser(email: email, passwordHash: hash, firstName: firstName, lastName: lastName, role: role, verified: true)
        }
    }

    /// Self-registration of an unverified student with its verification token, which carries
    /// this registration's password hash and names (``TenantStore/register(_:verificationToken:policy:)``).
    func register(
        in tenant: TenantStore, email: String, passwordHash: String, firstName: String, lastName: String,
        verificationTokenHash: String, tokenExpiresAt: Date
    ) async throws -> Registration {
        let user = newUser(
            email: email, passwordHash: passwordHash, firstName: firstName, lastName: lastName, role: .student,
            verified: false)
        return try await tenant.register(
            user,
            verificationToken: EmailTokenRecord(
                tokenHash: verificationTokenHash, userId: user.id, kind: .verifyEmail, createdAt: user.createdAt,
                expiresAt: tokenExpiresAt, passwordHash: user.passwordHash, firstName: user.firstName,
                lastName: user.lastName, registeredAt: user.createdAt),
            policy: deps.configuration.sessionPolicy)
    }

    private func newUser(
        email: String, passwordHash: String, firstName: String, lastName: String, role: UserRecord.Role, verified: Bool
    ) -> UserRecord {
        let now = deps.now
        var user = UserRecord(
            id: RecordID.make(), email: EmailAddress.normalized(email), emailKey: "", passwordHash: passwordHash,
            firstName: firstName.trimmingCharacters(in: .schemaWhitespace),
            lastName: lastName.trimmingCharacters(in: .schemaWhitespace), role: role, emailVerified: verified,
            version: 1, createdAt: now, updatedAt: now)
        user.refreshDerivedColumns()
        return user
    }
}
