import Foundation
import GRDB

/// Single-use email tokens: password resets and email verification.
extension TenantStore {
    /// Stores a new single-use email token for the account holding `emailKey`, when `eligible`
    /// accepts it, in the transaction that finds the account (which also prunes the tenant when
    /// due, ``SessionPruning``).
    /// - Returns: The account, `nil` when there is none (or it is not eligible).
    package func issueEmailToken(
        emailKey: String, kind: EmailTokenRecord.Kind, tokenHash: String, now: Date, expiresAt: Date,
        policy: SessionPolicy, eligible: @escaping @Sendable (UserRecord) -> Bool
    ) async throws -> UserRecord? {
        try await database.writer.write { db -> UserRecord? in
            try SessionPruning.pruneIfDue(db, now: now, policy: policy)
            guard let user = try UserRecord.filter(UserRecord.Columns.emailKey == emailKey).fetchOne(db), eligible(user)
            else { return nil }
            try EmailTokenRecord(
                tokenHash: tokenHash, userId: user.id, kind: kind, createdAt: now, expiresAt: expiresAt
            ).insert(db)
            return user
        }
    }

    /// Whether a token of `kind` with this hash is usable now.
    package func isEmailTokenUsable(_ tokenHash: String, kind: EmailTokenRecord.Kind, now: Date) async throws -> Bool {
        try await database.read { db in
            try EmailTokenRecord.fetchOne(db, key: tokenHash)?.isUsable(kind: kind, now: now) == true
        }
    }

    /// Spends a reset token and sets the new password, in one transaction: every other
    /// outstanding reset token of the user dies with it (a leaked older mail must not reset the
    /// password just chosen), the address counts as verified (the mail reached its holder), and
    /// every session of the user ends.
    ///
    /// - Throws: `400 invalid_token` when the token is unknown, used or expired.
    package func resetPassword(tokenHash: String, newPasswordHash: String, now: Date) async throws {
        try await database.writer.write { db in
            guard var token = try EmailTokenRecord.fetchOne(db, key: tokenHash),
                token.isUsable(kind: .resetPassword, now: now),
                var user = try UserRecord.fetchOne(db, key: token.userId)
            else { throw StoreError.invalidEmailToken }
            token.usedAt = now
            try token.update(db)
            try db.execute(
                sql: "UPDATE email_tokens SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL",
                arguments: [now, user.id, EmailTokenRecord.Kind.resetPassword.rawValue])
            user.passwordHash = newPasswordHash
            user.emailVerified = true
            user.version += 1
            user.updatedAt = now
            try user.update(db)
            try db.execute(
                sql: "UPDATE sessions SET revoked_at = ?, revoke_reason = 'password_reset' WHERE user_id = ? AND revoked_at IS NULL",
                arguments: [now, user.id])
        }
    }

    /// Spends a verification token and marks the account's address verified, in one transaction.
    ///
    /// The account takes the registration the token carries (its password hash and names): the
    /// holder of the mailbox who follows the mail of their own registration gets their own
    /// password, whoever else registered the address. Every other verification token of the
    /// account ends with it, so no other registration can be activated afterwards. A token of an
    /// account already verified (by another route, such as a password reset) changes nothing.
    ///
    /// - Throws: `400 invalid_token` when the token is unknown, used or expired.
    package func verifyEmail(tokenHash: String, now: Date) async throws -> UserRecord {
        try await database.writer.write { db -> UserRecord in
            guard var token = try EmailTokenRecord.fetchOne(db, key: tokenHash),
                token.isUsable(kind: .verifyEmail, now: now),
                var user = try UserRecord.fetchOne(db, key: token.userId)
            else { throw StoreError.invalidEmailToken }
            token.usedAt = now
            try token.update(db)
            guard !user.emailVerified else { return user }
            try db.execute(
                sql: "UPDATE email_tokens SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL",
                arguments: [now, user.id, EmailTokenRecord.Kind.verifyEmail.rawValue])
            if let passwordHash = token.passwordHash { user.passwordHash = passwordHash }
            if let firstName = token.firstName { user.firstName = firstName }
            if let lastName = token.lastName { user.lastName = lastName }
            user.emailVerified = true
            user.version += 1
            user.updatedAt = now
            try user.update(db)
            return user
        }
    }

    /// Stores fresh verification tokens for the pending (unverified) account holding `emailKey`:
    /// one for each of its newest `limit` registrations still pending, carrying that same
    /// registration, or, when none is, one carrying the account's own. In one transaction, which
    /// also prunes the tenant when due.
    ///
    /// - Parameter makeToken: A new random token and the hash it is stored as.
    /// - Returns: The account and each token to mail with the time of its registration; `nil`
    ///   when no unverified account holds the address.
    package func reissueVerification(
        emailKey: String, now: Date, expiresAt: Date, limit: Int, policy: SessionPolicy,
        makeToken: @escaping @Sendable () -> (token: String, hash: String)
    ) async throws -> (UserRecord, [(token: String, registeredAt: Date)])? {
        try await database.writer.write { db -> (UserRecord, [(token: String, registeredAt: Date)])? in
            try SessionPruning.pruneIfDue(db, now: now, policy: policy)
            guard let user = try UserRecord.filter(UserRecord.Columns.emailKey == emailKey).fetchOne(db),
                !user.emailVerified
            else { return nil }
            var registrations = Array(try Self.pendingRegistrations(db, of: user, now: now).prefix(max(limit, 1)))
            if registrations.isEmpty {
                registrations = [
                    EmailTokenRecord(
                        tokenHash: "", userId: user.id, kind: .verifyEmail, createdAt: now, expiresAt: expiresAt,
                        passwordHash: user.passwordHash, firstName: user.firstName, lastName: user.lastName,
                        registeredAt: user.createdAt)
                ]
            }
            var mailed: [(token: String, registeredAt: Date)] = []
            for registration in registrations {
                let (token, hash) = makeToken()
                var fresh = registration
                fresh.tokenHash = hash
                fresh.createdAt = now
                fresh.expiresAt = expiresAt
                fresh.usedAt = nil
                fresh.registeredAt = registration.registeredAt ?? registration.createdAt
                try fresh.insert(db)
                mailed.append((token, fresh.registeredAt ?? now))
            }
            return (user, mailed)
        }
    }
}

extension EmailTokenRecord {
    package func isUsable(kind: Kind, now: Date) -> Bool {
        self.kind == kind && usedAt == nil && expiresAt > now
    }
}
