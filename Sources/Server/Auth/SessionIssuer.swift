import EduGoServerStore
import Foundation

/// Starts sessions and rotates refresh tokens.
///
/// A refresh token is single use. Presenting a rotated token again means it leaked (or a response
/// was lost): within the grace window the caller gets a fresh pair, after it the whole session
/// family is revoked.
struct SessionIssuer {
    let deps: Dependencies

    /// Starts a session for a sign-in whose password was verified against `user.passwordHash`.
    ///
    /// The store inserts the session only if that hash is still the account's, in the same
    /// transaction: a password reset (or a deletion) that committed while the password was being
    /// verified leaves no session behind.
    ///
    /// - Parameters:
    ///   - user: The account as read before the password was verified.
    ///   - tenant: The account's tenant.
    /// - Returns: The token pair, describing the account as it stood at the insert.
    /// - Throws: `401 invalid_credentials`, as for a wrong password, when the credential changed.
    func startSession(for user: UserRecord, in tenant: TenantStore) async throws -> TokenPairResponse {
        let now = deps.now
        let sessionID = RecordID.make()
        let refreshToken = SecureToken.generate()
        let expires = now.addingTimeInterval(
            min(deps.configuration.tokens.refreshLifetime, deps.configuration.sessions.maxAge).timeInterval)
        guard
            let current = try await tenant.startSession(
                SessionRecord(id: sessionID, userId: user.id, createdAt: now),
                refreshToken: RefreshTokenRecord(
                    tokenHash: SecureToken.hash(refreshToken), sessionId: sessionID, issuedAt: now, expiresAt: expires),
                verifiedPasswordHash: user.passwordHash, policy: deps.configuration.sessionPolicy)
        else { throw APIError.invalidCredentials }
        return try await pair(user: current, tenant: tenant, sessionID: sessionID, refreshToken: refreshToken)
    }

    func rotate(refreshToken: String, in tenant: TenantStore) async throws -> TokenPairResponse {
        let newToken = SecureToken.generate()
        let outcome = try await tenant.rotateRefreshToken(
            RefreshRequestFacts(
                presentedHash: SecureToken.hash(refreshToken), newHash: SecureToken.hash(newToken), now: deps.now,
                grace: deps.configuration.tokens.refreshReuseGraceWindow.timeInterval,
                lifetime: deps.configuration.tokens.refreshLifetime.timeInterval,
                policy: deps.configuration.sessionPolicy))
        switch outcome {
        case .rotated(let user, let sessionID):
            return try await pair(user: user, tenant: tenant, sessionID: sessionID, refreshToken: newToken)
        case .revokedFamily:
            deps.logger.warning(
                "refresh token reuse: session family revoked", metadata: ["tenant": .string(tenant.tenantID.rawValue)])
            throw APIError.invalidRefreshToken
        case .refused:
            throw APIError.invalidRefreshToken
        }
    }

    private func pair(
        user: UserRecord, tenant: TenantStore, sessionID: String, refreshToken: String
    ) async throws -> TokenPairResponse {
        let access = try await deps.tokens.issue(
            userID: user.id, tenantID: tenant.tenantID, role: user.role, sessionID: sessionID)
        return TokenPairResponse(
            accessToken: access, refreshToken: refreshToken, expiresIn: deps.tokens.lifetimeSeconds,
            user: UserResponse(user))
    }
}

extension APIError {
    /// An unknown email, a wrong password, or a password that changed while it was verified.
    static let invalidCredentials = APIError(
        .unauthorized, code: "invalid_credentials", detail: "The email or password is incorrect.")

    static let invalidRefreshToken = APIError(
        .unauthorized, code: "invalid_refresh_token", detail: "The refresh token is not valid. Sign in again.")
}
