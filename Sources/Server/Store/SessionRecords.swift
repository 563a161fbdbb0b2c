import Foundation
import GRDB

/// A login session: the family of refresh tokens descending from one sign-in.
struct SessionRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sessions"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var id: String
    var userId: String
    var createdAt: Date
    var revokedAt: Date?
    var revokeReason: String?
}

/// One refresh token of a session, stored only as its SHA-256 hash.
struct RefreshTokenRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "refresh_tokens"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var tokenHash: String
    var sessionId: String
    var issuedAt: Date
    var expiresAt: Date
    var usedAt: Date?
}

/// A single-use email token (verification or password reset), stored hashed.
struct EmailTokenRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "email_tokens"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

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
}
