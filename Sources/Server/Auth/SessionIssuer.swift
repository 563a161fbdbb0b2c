import Foundation
import GRDB

/// Starts sessions and rotates refresh tokens.
///
/// A refresh token is single use. Presenting a rotated token again means it leaked (or a response
/// was lost): within the grace window the caller gets a fresh pair, after it the whole session
/// family is revoked.
struct SessionIssuer {
    let deps: Dependencies

    func startSession(for user: UserRecord, in tenant: TenantDatabase) async throws -> TokenPairResponse {
        let now = deps.now
        let sessionID = RecordID.make()
        let refreshToken = SecureToken.generate()
        let expires = now.addingTimeInterval(
            min(deps.configuration.refreshTokenLifetime, deps.configuration.maxSessionAge).timeInterval)
        try await tenant.writer.write { db in
            try SessionRecord(id: sessionID, userId: user.id, createdAt: now).insert(db)
            try RefreshTokenRecord(
                tokenHash: SecureToken.hash(refreshToken), sessionId: sessionID, issuedAt: now, expiresAt: expires
            ).insert(db)
        }
        return try await pair(user: user, tenant: tenant, sessionID: sessionID, refreshToken: refreshToken)
    }

    func rotate(refreshToken: String, in tenant: TenantDatabase) async throws -> TokenPairResponse {
        let now = deps.now
        let grace = deps.configuration.refreshReuseGraceWindow.timeInterval
        let lifetime = deps.configuration.refreshTokenLifetime.timeInterval
        let maxAge = deps.configuration.maxSessionAge.timeInterval
        let newToken = SecureToken.generate()
        let presentedHash = SecureToken.hash(refreshToken)

        enum Outcome { case rotated(UserRecord, sessionID: String), revokedFamily, refused }

        let outcome = try await tenant.writer.write { db -> Outcome in
            guard let presented = try RefreshTokenRecord.fetchOne(db, key: presentedHash),
                let session = try SessionRecord.fetchOne(db, key: presented.sessionId),
                session.revokedAt == nil, presented.expiresAt > now,
                let user = try UserRecord.fetchOne(db, key: session.userId)
            else { return .refused }
            // However often it is refreshed, a session ends `maxSessionAge` after its sign-in.
            let sessionEnds = session.createdAt.addingTimeInterval(maxAge)
            guard sessionEnds > now else {
                try db.execute(
                    sql: "UPDATE sessions SET revoked_at = ?, revoke_reason = 'max_age' WHERE id = ?",
                    arguments: [now, session.id])
                return .refused
            }
            if let usedAt = presented.usedAt, now.timeIntervalSince(usedAt) > grace {
                try db.execute(
                    sql: "UPDATE sessions SET revoked_at = ?, revoke_reason = 'refresh_token_reuse' WHERE id = ?",
                    arguments: [now, session.id])
                return .revokedFamily
            }
            // Retire every live token of the family (the presented one, or in the grace window
            // the one whose response was lost) and issue the next.
            try db.execute(
                sql: "UPDATE refresh_tokens SET used_at = ? WHERE session_id = ? AND used_at IS NULL",
                arguments: [now, session.id])
            try RefreshTokenRecord(
                tokenHash: SecureToken.hash(newToken), sessionId: session.id, issuedAt: now,
                expiresAt: min(now.addingTimeInterval(lifetime), sessionEnds)
            ).insert(db)
            return .rotated(user, sessionID: session.id)
        }
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
        user: UserRecord, tenant: TenantDatabase, sessionID: String, refreshToken: String
    ) async throws -> TokenPairResponse {
        let access = try await deps.tokens.issue(
            userID: user.id, tenantID: tenant.tenantID, role: user.role, sessionID: sessionID)
        return TokenPairResponse(
            accessToken: access, refreshToken: refreshToken, expiresIn: deps.tokens.lifetimeSeconds,
            user: UserResponse(user))
    }
}

extension APIError {
    static let invalidRefreshToken = APIError(
        .unauthorized, code: "invalid_refresh_token", detail: "The refresh token is not valid. Sign in again.")
}
