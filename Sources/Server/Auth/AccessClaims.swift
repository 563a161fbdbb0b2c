import EduGoServerStore
import Foundation
import JWTKit

/// The claims of an EduGo access token.
struct AccessClaims: JWTPayload, Equatable {
    var iss: IssuerClaim
    var aud: AudienceClaim
    var sub: SubjectClaim
    var tid: String
    var role: String
    var sid: String
    var iat: IssuedAtClaim
    var nbf: NotBeforeClaim
    var exp: ExpirationClaim
    var jti: IDClaim
    /// Set only on a token the dev backend minted to act as the user (RFC 8693's actor claim,
    /// `{"sub": "edugo-dev"}`): it stands for no session, and only a dev-mode server accepts it.
    var act: Actor? = nil

    /// Who acts as the token's subject.
    struct Actor: Codable, Equatable {
        /// The dev backend's name for itself.
        static let devBackend = Actor(sub: "edugo-dev")

        var sub: String
    }

    /// Structural checks jwt-kit runs after the signature verified. Time, issuer and audience
    /// are checked by ``TokenService/verify(_:)`` against the injected clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {
        guard UserRecord.Role(rawValue: role) != nil, TenantID(tid) != nil, !sid.isEmpty else {
            throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "malformed claims")
        }
    }

    /// Checks expiry, not-before, issuer and audience.
    func validate(now: Date, issuer: String, audience: String) throws {
        try exp.verifyNotExpired(currentDate: now)
        // `nbf` is whole seconds and usually equals `iat`: a token is valid from that instant on.
        // (jwt-kit's `verifyNotBefore` demands `nbf < now`, refusing a fresh token while the clock
        // still reads the second it was issued in.)
        guard nbf.value <= now else {
            throw JWTError.claimVerificationFailure(failedClaim: nbf, reason: "not yet valid")
        }
        guard iss.value == issuer else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "wrong issuer")
        }
        try aud.verifyIntendedAudience(includes: audience)
    }
}
