import Foundation
import GRDB

/// A login session: the family of refresh tokens descending from one sign-in.
struct SessionRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sessions"

    var id: String
    var userId: String
    var createdAt: Date
    var revokedAt: Date?
    var revokeReason: String?

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    enum CodingKeys: String, CodingKey {
        case id
        case userId = "user_id"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
        case revokeReason = "revoke_reason"
    }
}

/// One refresh token of a session, stored only as its SHA-256 hash.
struct RefreshTokenRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "refresh_tokens"

    var tokenHash: String
    var sessionId: String
    var issuedAt: Date
    var expiresAt: Date
    var usedAt: Date?

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    enum CodingKeys: String, CodingKey {
        case tokenHash = "token_hash"
        case sessionId = "session_id"
        case issuedAt = "issued_at"
        case expiresAt = "expires_at"
        case usedAt = "used_at"
    }
}

/// A single-use email token (verification or password reset), stored hashed.
///
/// A verification token carries the registration it confirms (the password hash and names that
/// registrant chose, and when): verifying it sets exactly those, so each registrant's mail
/// activates their own password.
struct EmailTokenRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "email_tokens"

    enum Kind: String, Codable, Sendable {
        case verifyEmail = "verify_email"
        case resetPassword = "reset_password"
    }

    var tokenHash: String
    var userId: String
    var kind: Kind
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
    /// A verification token's registration: the password hash it sets.
    var passwordHash: String?
    /// A verification token's registration: the first name it sets.
    var firstName: String?
    /// A verification token's registration: the last name it sets.
    var lastName: String?
    /// When the registration a verification token confirms was made (the time its mails name).
    var registeredAt: Date?

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    enum CodingKeys: String, CodingKey {
        case tokenHash = "token_hash"
        case userId = "user_id"
        case kind
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case usedAt = "used_at"
        case passwordHash = "password_hash"
        case firstName = "first_name"
        case lastName = "last_name"
        case registeredAt = "registered_at"
    }
}
