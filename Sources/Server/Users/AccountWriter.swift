import Foundation
import GRDB

/// Creates accounts: one place for the email-uniqueness rule and password hashing.
struct AccountWriter {
    let deps: Dependencies

    /// Inserts a user; answers `409 email_taken` when the email exists in this tenant.
    func createAccount(
        in tenant: TenantDatabase, email: String, password: String, firstName: String, lastName: String,
        role: UserRecord.Role, verified: Bool
    ) async throws -> UserRecord {
        let emailKey = UserRecord.emailKey(email)
        let taken = try await tenant.writer.read { db in
            try UserRecord.filter(UserRecord.Columns.emailKey == emailKey).fetchCount(db) > 0
        }
        if taken { throw APIError.emailTaken }
        let hash = await deps.passwords.hash(password)
        let now = deps.now
        var user = UserRecord(
            id: UUID().uuidString.lowercased(), email: email.trimmingCharacters(in: .whitespacesAndNewlines),
            emailKey: emailKey, passwordHash: hash,
            firstName: firstName.trimmingCharacters(in: .schemaWhitespace),
            lastName: lastName.trimmingCharacters(in: .schemaWhitespace), role: role, emailVerified: verified,
            searchText: "", version: 1, createdAt: now, updatedAt: now)
        user.refreshDerivedColumns()
        do {
            try await tenant.writer.write { [user] db in try user.insert(db) }
        } catch DatabaseError.SQLITE_CONSTRAINT {
            throw APIError.emailTaken
        }
        return user
    }
}

extension APIError {
    static let emailTaken = APIError(
        .conflict, code: "email_taken", detail: "An account with this email already exists.")
}
