import Foundation
import GRDB

/// A row of `users`. Never encoded into a response: see ``UserResponse``.
struct UserRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "users"

    enum Role: String, Codable, Sendable, CaseIterable {
        case student, teacher, admin
    }

    var id: String
    var email: String
    var emailKey: String
    var passwordHash: String
    var firstName: String
    var lastName: String
    var role: Role
    var emailVerified: Bool
    var version: Int
    var createdAt: Date
    var updatedAt: Date

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    enum CodingKeys: String, CodingKey {
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

    enum Columns {
        static let id = Column("id")
        static let emailKey = Column("email_key")
        static let role = Column("role")
        static let createdAt = Column("created_at")
    }

    /// Recomputes the derived column after a change of email (the search index follows the row
    /// by itself: ``SearchIndexMigration``).
    mutating func refreshDerivedColumns() {
        emailKey = Self.emailKey(email)
    }

    /// Emails are unique per tenant, compared case-insensitively after NFKC (``EmailAddress``).
    static func emailKey(_ email: String) -> String {
        EmailAddress.key(email)
    }
}

extension UserRecord.Role: DatabaseValueConvertible {}
