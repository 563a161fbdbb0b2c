import EduGoServerStore
import Foundation
import JWTKit

/// Issues and verifies ES256 access tokens.
///
/// Verification pins the algorithm and the key id before jwt-kit sees the token: jwt-kit would
/// otherwise fall back to its default key for an unknown `kid`.
struct TokenService: Sendable {
    let keys: JWTKeyCollection
    let signingKey: SigningKey
    let issuer: String
    let audience: String
    let lifetime: Duration
    let now: @Sendable () -> Date
    /// Tokens whose signature verified already.
    let verified = VerifiedTokenCache()

    init(signingKey: SigningKey, configuration: ServerConfiguration) async {
        self.signingKey = signingKey
        self.keys = JWTKeyCollection()
        await keys.add(ecdsa: signingKey.privateKey, kid: JWKIdentifier(string: signingKey.kid))
        self.issuer = configuration.tokens.issuer
        self.audience = configuration.tokens.audience
        self.lifetime = configuration.tokens.accessLifetime
        self.now = configuration.now
    }

    var jwks: JWKSDocument { JWKSDocument(keys: [signingKey.publicJWK]) }

    /// Lifetime in whole seconds, as `expires_in` reports it.
    var lifetimeSeconds: Int { Int(lifetime.timeInterval) }

    func issue(userID: String, tenantID: TenantID, role: UserRecord.Role, sessionID: String) async throws -> String {
        try await issue(userID: userID, tenantID: tenantID, role: role, sessionID: sessionID, lifetime: lifetime, actor: nil)
    }

    /// How the `sid` of an impersonation token begins (no session row holds such an id).
    static let impersonationSessionPrefix = "impersonation-"

    /// A token the dev backend mints to act as `userID` (``AccessClaims/act``): it stands for no
    /// session (`sessionID` is a fresh id no session row holds) and lives `lifetime`.
    func issueImpersonation(userID: String, tenantID: TenantID, role: UserRecord.Role, lifetime: Duration) async throws -> String {
        try await issue(
            userID: userID, tenantID: tenantID, role: role, sessionID: Self.impersonationSessionPrefix + RecordID.make(), lifetime: lifetime,
            actor: .devBackend)
    }

    private func issue(
        userID: String, tenantID: TenantID, role: UserRecord.Role, sessionID: String, lifetime: Duration,
        actor: AccessClaims.Actor?
    ) async throws -> String {
        // Whole seconds: NumericDate consumers commonly expect integers.
        let issuedAt = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
        let claims = AccessClaims(
            iss: .init(value: issuer),
            aud: .init(value: [audience]),
            sub: .init(value: userID),
            tid: tenantID.rawValue,
            role: role.rawValue,
            sid: sessionID,
            iat: .init(value: issuedAt),
            nbf: .init(value: issuedAt),
            exp: .init(value: issuedAt.addingTimeInterval(lifetime.timeInterval)),
            jti: .init(value: RecordID.make()),
            act: actor)
        return try await keys.sign(claims, kid: JWKIdentifier(string: signingKey.kid))
    }

    /// Verifies signature, algorithm, key id, expiry, not-before, issuer and audience.
    ///
    /// - Throws: `401 unauthorized` with `WWW-Authenticate: Bearer error="invalid_token"`.
    func verify(_ token: String) async throws -> AccessClaims {
        if let claims = verified.claims(for: token) {
            do {
                try claims.validate(now: now(), issuer: issuer, audience: audience)
            } catch {
                throw Self.refusal(error)
            }
            return claims
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Data(base64URLEncoded: String(parts[0])),
            let header = try? JSONDecoder().decode(Header.self, from: headerData),
            header.alg == "ES256", header.kid == signingKey.kid
        else {
            throw APIError.unauthorized("The access token is not valid.", invalidToken: true)
        }
        let claims: AccessClaims
        do {
            claims = try await keys.verify(token, as: AccessClaims.self)
            try claims.validate(now: now(), issuer: issuer, audience: audience)
        } catch {
            throw Self.refusal(error)
        }
        verified.insert(claims, for: token)
        return claims
    }

    /// The `401` for a token that failed verification or validation.
    private static func refusal(_ error: any Error) -> APIError {
        let expired = (error as? JWTError)?.errorType == .claimVerificationFailure
            && (error as? JWTError)?.failedClaim is ExpirationClaim
        return APIError.unauthorized(
            expired ? "The access token has expired." : "The access token is not valid.", invalidToken: true)
    }

    private struct Header: Decodable {
        var alg: String
        var kid: String?
    }
}
