import Foundation

/// A user as the API returns it.
public struct User: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var email: String
    public var firstName: String
    public var lastName: String
    public var role: String
    public var emailVerified: Bool
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date
}

/// The answer to login and refresh.
public struct TokenResponse: Decodable, Sendable {
    public var accessToken: String
    public var refreshToken: String
    public var expiresIn: Int
    public var tokenType: String
    public var user: User

    /// The tokens to store, with the expiry read from the JWT (falling back to `expires_in`).
    func sessionTokens(tenantID: String, now: Date) -> SessionTokens {
        let claims = AccessTokenClaims(jwt: accessToken)
        return SessionTokens(
            accessToken: accessToken, refreshToken: refreshToken,
            accessTokenExpiresAt: claims?.expiresAt ?? now.addingTimeInterval(TimeInterval(expiresIn)),
            userID: user.id, tenantID: claims?.tenantID ?? tenantID)
    }
}
