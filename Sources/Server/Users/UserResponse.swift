import EduGoServerStore
import Foundation

/// The public representation of a user: never the password hash or internal columns.
struct UserResponse: Codable, Sendable, Equatable {
    var id: String
    var email: String
    var firstName: String
    var lastName: String
    var role: String
    var emailVerified: Bool
    var version: Int
    var createdAt: Date
    var updatedAt: Date

    init(_ record: UserRecord) {
        self.id = record.id
        self.email = record.email
        self.firstName = record.firstName
        self.lastName = record.lastName
        self.role = record.role.rawValue
        self.emailVerified = record.emailVerified
        self.version = record.version
        self.createdAt = record.createdAt
        self.updatedAt = record.updatedAt
    }
}

extension UserRecord: SyncRepresentable {
    /// How the change feed carries a user's own profile.
    var syncRepresentation: any Encodable & Sendable { UserResponse(self) }
}
