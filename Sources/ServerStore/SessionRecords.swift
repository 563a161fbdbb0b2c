import Foundation
import GRDB

/// A login session: the family of refresh tokens descending from one sign-in.
package struct SessionRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "sessions"

    package var id: String
    package var userId: String
    package var createdAt: Date
    package var revokedAt: Date?
    package var revokeReason: String?

    package init(id: String, userId: String, createdAt: Date, revokedAt: Date? = nil, revokeReason: String? = nil) {
        self.id = id
        self.userId = userId
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.revokeReason = revokeReason
    }

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    package enum CodingKeys: String, CodingKey {
        case id
        case userId = "user_id"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
        case revokeReason = "revoke_reason"
    }
}

/// One refresh token of a session, stored only as its SHA-256 hash.
package struct RefreshTokenRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "refresh_tokens"

    package var tokenHash: String
    package var sessionId: String
    package var issuedAt: Date
    package var expiresAt: Date
    package var usedAt: Date?

    package init(tokenHash: String, sessionId: String, issuedAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.tokenHash = tokenHash
        self.sessionId = sessionId
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    package enum CodingKeys: String, CodingKey {
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
package struct EmailTokenRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "email_tokens"

    package enum Kind: String, Codable, Sendable {
        case verifyEmail = "verify_email"
        case resetPassword = "reset_password"
    }

    package var tokenHash: String
    package var userId: String
    package var kind: Kind
    package var createdAt: Date
    package var expiresAt: Date
    package var usedAt: Date?
    /// A verification token's registration: the password hash it sets.
    package var passwordHash: String?
    /// A verification token's registration: the first name it sets.
    package var firstName: String?
    /// A verification token's registration: the last name it sets.
    package var lastName: String?
    /// When the registration a verification token confirms was made (the time its mails name).
    package var registeredAt: Date?

    package init(tokenHash: String, userId: String, kind: Kind, createdAt: Date, expiresAt: Date, usedAt: Date? = nil, passwordHash: String? = nil, firstName: String? = nil, lastName: String? = nil, registeredAt: Date? = nil) {
        self.tokenHash = tokenHash
        self.userId = userId
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.passwordHash = passwordHash
        self.firstName = firstName
        self.lastName = lastName
        self.registeredAt = registeredAt
    }

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    package enum CodingKeys: String, CodingKey {
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
