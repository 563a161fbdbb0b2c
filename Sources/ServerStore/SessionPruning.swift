import Foundation
import GRDB

/// Deletes the rows of `sessions`, `refresh_tokens` and `email_tokens` that can no longer change
/// any answer, so the tables hold what is live rather than everything ever issued.
///
/// What goes, on the server's clock:
/// - a revoked session, and a session past ``SessionPolicy/maxSessionAge`` (with their refresh
///   tokens): presenting one of their tokens is refused whether the row exists or not;
/// - a refresh token past its `expires_at`: it is refused whether the row exists or not. A used
///   (rotated) token is kept until then, because presenting it again within its lifetime must
///   still find it and revoke its family (reuse detection);
/// - a used or expired email token: it is refused whether the row exists or not.
///
/// A pruning runs inside a write that adds rows to those tables (a sign-in, a rotation, an email
/// token), at most once per ``SessionPolicy/pruneInterval`` per tenant: the time of the last one is
/// read and moved in that same transaction, so concurrent writes cannot both prune. Each delete
/// is an index range scan (`v6-session-pruning`).
package enum SessionPruning {
    package static let migrationIdentifier = "v6-session-pruning"

    /// How many rows one pruning deleted.
    package struct Counts: Sendable, Equatable {
        package var sessions = 0
        package var refreshTokens = 0
        package var emailTokens = 0
    }

    /// The indexes the deletes and the per-user session cap read, and the table that remembers
    /// when the tenant was last pruned.
    package static func migrate(_ db: Database) throws {
        try db.create(
            index: "sessions_live_by_user_created", on: "sessions", columns: ["user_id", "created_at"],
            condition: Column("revoked_at") == nil)
        try db.create(
            index: "sessions_revoked", on: "sessions", columns: ["revoked_at"], condition: Column("revoked_at") != nil)
        try db.create(index: "sessions_by_created", on: "sessions", columns: ["created_at"])
        try db.create(index: "refresh_tokens_by_expiry", on: "refresh_tokens", columns: ["expires_at"])
        try db.create(index: "email_tokens_by_expiry", on: "email_tokens", columns: ["expires_at"])
        try db.create(
            index: "email_tokens_used", on: "email_tokens", columns: ["used_at"], condition: Column("used_at") != nil)
        try db.create(table: "maintenance_runs") { t in
            t.primaryKey("task", .text)
            t.column("ran_at", .datetime).notNull()
        }
    }

    /// Prunes when the last pruning is ``SessionPolicy/pruneInterval`` old or more, or lies in the
    /// future (the dev clock was moved back); records this one.
    /// - Returns: What was deleted, `nil` when no pruning was due.
    @discardableResult
    package static func pruneIfDue(_ db: Database, now: Date, policy: SessionPolicy) throws -> Counts? {
        let last = try Date.fetchOne(
            db.cachedStatement(sql: "SELECT ran_at FROM maintenance_runs WHERE task = 'session_pruning'"))
        if let last, last <= now, now.timeIntervalSince(last) < policy.pruneInterval { return nil }
        try db.execute(
            sql: "INSERT OR REPLACE INTO maintenance_runs (task, ran_at) VALUES ('session_pruning', ?)", arguments: [now])
        return try prune(db, now: now, maxSessionAge: policy.maxSessionAge)
    }

    /// Deletes what can no longer change an answer (see the type's documentation).
    package static func prune(_ db: Database, now: Date, maxSessionAge: TimeInterval) throws -> Counts {
        var counts = Counts()
        // Sessions first: their refresh tokens go with them (ON DELETE CASCADE) and are not
        // counted as expired tokens.
        try db.execute(sql: "DELETE FROM sessions WHERE revoked_at IS NOT NULL")
        counts.sessions += db.changesCount
        try db.execute(
            sql: "DELETE FROM sessions WHERE created_at <= ?", arguments: [now.addingTimeInterval(-maxSessionAge)])
        counts.sessions += db.changesCount
        try db.execute(sql: "DELETE FROM refresh_tokens WHERE expires_at <= ?", arguments: [now])
        counts.refreshTokens = db.changesCount
        try db.execute(sql: "DELETE FROM email_tokens WHERE used_at IS NOT NULL")
        counts.emailTokens = db.changesCount
        try db.execute(sql: "DELETE FROM email_tokens WHERE expires_at <= ?", arguments: [now])
        counts.emailTokens += db.changesCount
        return counts
    }
}
