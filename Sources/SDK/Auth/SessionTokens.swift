import Foundation

/// The tokens of a signed-in session, as kept in a ``TokenStore``.
public struct SessionTokens: Codable, Sendable, Equatable {
    /// The short-lived bearer token sent in `Authorization`.
    public var accessToken: String
    /// Exchanged for new tokens when the access token nears expiry. Each refresh returns a new one
    /// and spends the old one, so a store must always hold the latest.
    public var refreshToken: String
    /// When the access token expires (from its `exp` claim, else from `expires_in`).
    public var accessTokenExpiresAt: Date
    /// The signed-in user. Requests for one user's offline data are never sent with another user's
    /// tokens.
    public var userID: String
    /// The tenant the session belongs to.
    public var tenantID: String

    /// Creates the tokens of a session, as a custom ``TokenStore`` decodes them or a test builds them.
    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date, userID: String, tenantID: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.userID = userID
        self.tenantID = tenantID
    }
}

/// The claims the SDK reads from an access token, for scheduling only.
///
/// The signature is not checked here (the server does that); nothing in the SDK trusts these
/// values for access decisions.
public struct AccessTokenClaims: Sendable, Equatable {
    /// When the access token expires (`exp`).
    public var expiresAt: Date
    /// The user the token was issued to (`sub`).
    public var subject: String
    /// The tenant the token is valid in (`tid`).
    public var tenantID: String
    /// The user's role when the token was issued (`role`). For display only: the server decides what
    /// the user may do.
    public var role: String

    /// Decodes the payload segment of a compact JWT; `nil` when it is not one.
    public init?(jwt: String) {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let exp = (object["exp"] as? NSNumber)?.doubleValue,
            let sub = object["sub"] as? String, let tid = object["tid"] as? String, let role = object["role"] as? String
        else { return nil }
        self.expiresAt = Date(timeIntervalSince1970: exp)
        self.subject = sub
        self.tenantID = tid
        self.role = role
    }
}
