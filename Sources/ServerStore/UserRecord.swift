import Foundation
import GRDB

/// A row of `users`. Never encoded into a response: the server encodes its own `UserResponse`.
package struct UserRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "users"

    package enum Role: String, Codable, Sendable, CaseIterable {
        case student, teacher, admin
    }

    package var id: String
    package var email: String
    package var emailKey: String
    package var passwordHash: String
    package var firstName: String
    package var lastName: String
    package var role: Role
    package var emailVerified: Bool
    package var version: Int
    package var createdAt: Date
    package var updatedAt: Date

    package init(id: String, email: String, emailKey: String, passwordHash: String, firstName: String, lastName: String, role: Role, emailVerified: Bool, version: Int, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.email = email
        self.emailKey = emailKey
        self.passwordHash = passwordHash
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.emailVerified = emailVerified
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    package enum CodingKeys: String, CodingKey {
        case id
        case email
        case emailKey = "email_key"
        case passwordHash = "password_hash"
        case firstName = "first_name"
        case lastName = "last_name"
        case role
        case emailVerified = "email_verified"
        case version
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    package enum Columns {
        package static let id = Column("id")
        package static let emailKey = Column("email_key")
        package static let role = Column("role")
        package static let createdAt = Column("created_at")
    }

    /// Recomputes the derived column after a change of email (the search index follows the row
    /// by itself: ``SearchIndexMigration``).
    package mutating func refreshDerivedColumns() {
        emailKey = Self.emailKey(email)
    }

    /// Emails are unique per tenant, compared case-insensitively after NFKC (``EmailAddress``).
    package static func emailKey(_ email: String) -> String {
        EmailAddress.key(email)
    }
}

extension UserRecord.Role: DatabaseValueConvertible {}
