import Foundation

/// The tokens of a signed-in session, as kept in a ``TokenStore``.
public struct SessionTokens: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    /// When the access token expires (from its `exp` claim, else from `expires_in`).
    public var accessTokenExpiresAt: Date
    public var userID: String
    public var tenantID: String

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
    public var expiresAt: Date
    public var subject: String
    public var tenantID: String
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
