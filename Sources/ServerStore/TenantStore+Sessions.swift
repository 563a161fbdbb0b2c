import Foundation
import GRDB

/// What presenting a refresh token did (``TenantStore/rotateRefreshToken(_:)``).
package enum RefreshRotation: Sendable {
    /// The session goes on with a new refresh token.
    case rotated(UserRecord, sessionID: String)
    /// A rotated token came back after the grace window: the whole session family is revoked.
    case revokedFamily
    /// Unknown, expired, revoked, or past the session's maximum age.
    case refused
}

/// The parameters of one refresh-token rotation.
package struct RefreshRequestFacts: Sendable {
    package var presentedHash: String
    package var newHash: String
    package var now: Date
    package var grace: TimeInterval
    package var lifetime: TimeInterval
    package var policy: SessionPolicy

    package init(presentedHash: String, newHash: String, now: Date, grace: TimeInterval, lifetime: TimeInterval, policy: SessionPolicy) {
        self.presentedHash = presentedHash
        self.newHash = newHash
        self.now = now
        self.grace = grace
        self.lifetime = lifetime
        self.policy = policy
    }
}

extension TenantStore {
    /// The user of `sessionID`, when that session is live and belongs to `userID`.
    ///
    /// Answered from ``LiveSessionCache`` when an earlier request found the session live and
    /// nothing changed `users` or `sessions` since.
    package func user(inLiveSession sessionID: String, userID: String) async throws -> UserRecord? {
        let key = LiveSessionKey(sessionID: sessionID, userID: userID)
        let epoch: UInt64
        switch database.liveSessions.lookup(key) {
        case .hit(let user): return user
        case .miss(let current): epoch = current
        }
        let user = try await database.read { db in try Self.user(db, inLiveSession: sessionID, userID: userID) }
        if let user { database.liveSessions.store(user, for: key, readAt: epoch) }
        return user
    }

    package static func user(_ db: Database, inLiveSession sessionID: String, userID: String) throws -> UserRecord? {
        try UserRecord.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id
                    WHERE sessions.id = ? AND sessions.user_id = ? AND sessions.revoked_at IS NULL
                    """),
            arguments: [sessionID, userID])
    }

    /// The account `id`, if it exists: for a token the dev backend minted to act as it, which
    /// stands for no session.
    package func user(actedAs id: String) async throws -> UserRecord? {
        try await database.read { db in try UserRecord.fetchOne(db, key: id) }
    }

    /// The account holding the email key, if any.
    package func user(emailKey: String) async throws -> UserRecord? {
        try await database.read { db in
            try UserRecord.filter(UserRecord.Columns.emailKey == emailKey).fetchOne(db)
        }
    }

    /// Starts a session for a sign-in, with its first refresh token, when the password the
    /// sign-in verified is still the account's.
    ///
    /// A sign-in reads the account, then awaits bcrypt. A password reset that commits during
    /// that await revokes every session existing at its commit, not one inserted after it; so
    /// the hash is compared again here, in the transaction that inserts the session.
    ///
    /// The user keeps at most ``SessionPolicy/maxSessionsPerUser`` live sessions: the oldest
    /// beyond it are revoked (reason `session_limit`) in the same transaction, so concurrent
    /// sign-ins cannot together pass the cap. The tenant is pruned here when due
    /// (``SessionPruning``).
    ///
    /// - Parameters:
    ///   - session: The new session; its `userId` names the account, its `createdAt` is now.
    ///   - refreshToken: The session's first refresh token.
    ///   - verifiedPasswordHash: The `password_hash` the presented password was verified against.
    ///   - policy: The session cap and the pruning interval.
    /// - Returns: The account as it stands at the insert, or `nil` (and nothing written) when
    ///   the account is gone or its password hash is no longer `verifiedPasswordHash`.
    package func startSession(
        _ session: SessionRecord, refreshToken: RefreshTokenRecord, verifiedPasswordHash: String,
        policy: SessionPolicy
    ) async throws -> UserRecord? {
        try await database.writer.write { db -> UserRecord? in
            guard let user = try UserRecord.fetchOne(db, key: session.userId),
                user.passwordHash == verifiedPasswordHash
            else { return nil }
            try SessionPruning.pruneIfDue(db, now: session.createdAt, policy: policy)
            try Self.endOldestSessions(db, of: user.id, keeping: policy.maxSessionsPerUser - 1, now: session.createdAt)
            try session.insert(db)
            try refreshToken.insert(db)
            return user
        }
    }

    /// Revokes the user's live sessions beyond the `keeping` newest (reason `session_limit`).
    /// Sessions started in the same instant are ordered by insertion.
    package static func endOldestSessions(_ db: Database, of userID: String, keeping: Int, now: Date) throws {
        try db.execute(
            sql: """
                UPDATE sessions SET revoked_at = ?, revoke_reason = 'session_limit'
                WHERE id IN (
                    SELECT id FROM sessions WHERE user_id = ? AND revoked_at IS NULL
                    ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?)
                """,
            arguments: [now, userID, max(keeping, 0)])
    }

    /// Ends a session (logout). Ending an ended session changes nothing.
    package func revokeSession(_ sessionID: String, reason: String, now: Date) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE id = ? AND revoked_at IS NULL",
                arguments: [now, reason, sessionID])
        }
    }

    /// Rotates a presented refresh token, in one transaction.
    ///
    /// A refresh token is single use. Presenting a rotated token again means it leaked (or a
    /// response was lost): within the grace window the caller gets a fresh token, after it the
    /// whole session family is revoked. However often it is refreshed, a session ends
    /// `maxSessionAge` after its sign-in.
    package func rotateRefreshToken(_ facts: RefreshRequestFacts) async throws -> RefreshRotation {
        try await database.writer.write { db -> RefreshRotation in
            let now = facts.now
            try SessionPruning.pruneIfDue(db, now: now, policy: facts.policy)
            guard let presented = try RefreshTokenRecord.fetchOne(db, key: facts.presentedHash),
                let session = try SessionRecord.fetchOne(db, key: presented.sessionId),
                session.revokedAt == nil, presented.expiresAt > now,
                let user = try UserRecord.fetchOne(db, key: session.userId)
            else { return .refused }
            let sessionEnds = session.createdAt.addingTimeInterval(facts.policy.maxSessionAge)
            guard sessionEnds > now else {
                try db.execute(
                    sql: "UPDATE sessions SET revoked_at = ?, revoke_reason = 'max_age' WHERE id = ?",
                    arguments: [now, session.id])
                return .refused
            }
            if let usedAt = presented.usedAt, now.timeIntervalSince(usedAt) > facts.grace {
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
                tokenHash: facts.newHash, sessionId: session.id, issuedAt: now,
                expiresAt: min(now.addingTimeInterval(facts.lifetime), sessionEnds)
            ).insert(db)
            return .rotated(user, sessionID: session.id)
        }
    }
}
