import Foundation

/// A user as the API returns it.
public struct User: Codable, Sendable, Equatable, Identifiable {
    /// The server's id of the user.
    public var id: String
    /// The address the user signs in with.
    public var email: String
    /// The given name.
    public var firstName: String
    /// The family name.
    public var lastName: String
    /// What the user does: `student`, `teacher` or `admin`.
    public var role: String
    /// Whether the user confirmed their email. Some operations are refused until then
    /// (`email_not_verified`).
    public var emailVerified: Bool
    /// Raised by the server on every change; a profile write sends the version it is based on.
    public var version: Int
    /// When the account was created.
    public var createdAt: Date
    /// When the account last changed.
    public var updatedAt: Date
}

/// The answer to login and refresh.
public struct TokenResponse: Decodable, Sendable {
    /// The short-lived bearer token for requests.
    public var accessToken: String
    /// Exchanged for new tokens when the access token nears expiry.
    public var refreshToken: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    /// How the access token is sent: `Bearer`.
    public var tokenType: String
    /// The user the tokens belong to.
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
