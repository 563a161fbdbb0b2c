import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Issue 31, item 7: the session, refresh-token and email-token tables are pruned on the server's
/// clock, keeping what refresh-token reuse detection needs.
@Suite struct SessionPruningTests {
    static let t0 = TestClock.start
    static let policy = SessionPolicy(maxSessionAge: 90 * 86_400, maxSessionsPerUser: 50, pruneInterval: 600)

    /// The demo tenant's database and one of its students.
    static func demoStudent() async throws -> (TenantDatabase, UserRecord) {
        let database = try await TenantStoreTests.demoTenant()
        let user = try await TenantStore(database).user(emailKey: UserRecord.emailKey("student1@demo.edugo.dev"))
        return (database, try #require(user))
    }

    /// Writes rows as the store would have left them.
    static func insert(_ database: TenantDatabase, _ rows: [any PersistableRecord & Sendable]) async throws {
        try await database.writer.write { db in
            for row in rows { try row.insert(db) }
        }
    }

    static func session(_ id: String, of user: UserRecord, at date: Date, revoked: Date? = nil) -> SessionRecord {
        SessionRecord(id: id, userId: user.id, createdAt: date, revokedAt: revoked, revokeReason: revoked.map { _ in "logout" })
    }

    static func refreshToken(_ hash: String, of session: String, expires: Date, used: Date? = nil) -> RefreshTokenRecord {
        RefreshTokenRecord(tokenHash: hash, sessionId: session, issuedAt: t0.addingTimeInterval(-3_600), expiresAt: expires, usedAt: used)
    }

    static func emailToken(_ hash: String, of user: UserRecord, expires: Date, used: Date? = nil) -> EmailTokenRecord {
        EmailTokenRecord(tokenHash: hash, userId: user.id, kind: .resetPassword, createdAt: t0.addingTimeInterval(-3_600), expiresAt: expires, usedAt: used)
    }

    /// Starts a session through the store at `date`, which prunes when due.
    static func signIn(_ user: UserRecord, in database: TenantDatabase, at date: Date, policy: SessionPolicy = policy) async throws -> String {
        let id = RecordID.make()
        _ = try await TenantStore(database).startSession(
            SessionRecord(id: id, userId: user.id, createdAt: date),
            refreshToken: RefreshTokenRecord(
                tokenHash: SecureToken.hash(SecureToken.generate()), sessionId: id, issuedAt: date,
                expiresAt: date.addingTimeInterval(3_600)),
            verifiedPasswordHash: user.passwordHash, policy: policy)
        return id
    }

    static func ids(_ sql: String, in database: TenantDatabase) async throws -> Set<String> {
        try await database.writer.read { db in Set(try String.fetchAll(db, sql: sql)) }
    }

    @Test("a due pruning deletes revoked and over-age sessions, expired refresh tokens and spent email tokens, and keeps the rest")
    func pruningDeletesWhatIsDead() async throws {
        // Given every kind of row, dead and alive
        let (database, user) = try await Self.demoStudent()
        let later = Self.t0.addingTimeInterval(86_400)
        try await Self.insert(database, [
            Self.session("live", of: user, at: Self.t0.addingTimeInterval(-60)),
            Self.session("logged-out", of: user, at: Self.t0.addingTimeInterval(-60), revoked: Self.t0.addingTimeInterval(-30)),
            Self.session("over-age", of: user, at: Self.t0.addingTimeInterval(-Self.policy.maxSessionAge)),
            Self.refreshToken("rotated", of: "live", expires: later, used: Self.t0.addingTimeInterval(-50)),
            Self.refreshToken("current", of: "live", expires: later),
            Self.refreshToken("expired", of: "live", expires: Self.t0),
            Self.refreshToken("of-logged-out", of: "logged-out", expires: later),
            Self.refreshToken("of-over-age", of: "over-age", expires: later),
            Self.emailToken("mail-used", of: user, expires: later, used: Self.t0.addingTimeInterval(-10)),
            Self.emailToken("mail-expired", of: user, expires: Self.t0),
            Self.emailToken("mail-live", of: user, expires: later),
        ])

        // When a sign-in starts a session at t0 (the tenant was never pruned)
        let new = try await Self.signIn(user, in: database, at: Self.t0)

        // Then only what can still change an answer is left
        #expect(try await Self.ids("SELECT id FROM sessions", in: database) == ["live", new])
        let tokens = try await Self.ids("SELECT token_hash FROM refresh_tokens WHERE session_id != '\(new)'", in: database)
        #expect(tokens == ["rotated", "current"])
        #expect(try await Self.ids("SELECT token_hash FROM email_tokens", in: database) == ["mail-live"])
    }

    @Test("pruning runs at most once per interval, and again when the clock moved back")
    func pruningHonoursItsInterval() async throws {
        // Given a tenant pruned at t0
        let (database, user) = try await Self.demoStudent()
        _ = try await Self.signIn(user, in: database, at: Self.t0)
        let revokedAt = Self.t0.addingTimeInterval(1)
        try await Self.insert(database, [Self.session("logged-out", of: user, at: Self.t0, revoked: revokedAt)])
        let loggedOut = "SELECT id FROM sessions WHERE id = 'logged-out'"

        // When sessions start 599 s later, then 600 s later
        _ = try await Self.signIn(user, in: database, at: Self.t0.addingTimeInterval(599))
        let before = try await Self.ids(loggedOut, in: database)
        _ = try await Self.signIn(user, in: database, at: Self.t0.addingTimeInterval(600))
        let after = try await Self.ids(loggedOut, in: database)

        // Then only the second pruned
        #expect(before == ["logged-out"])
        #expect(after.isEmpty)

        // And a clock moved back before the last pruning prunes at once
        try await Self.insert(database, [Self.session("logged-out-2", of: user, at: Self.t0, revoked: revokedAt)])
        _ = try await Self.signIn(user, in: database, at: Self.t0.addingTimeInterval(-3_600))
        #expect(try await Self.ids("SELECT id FROM sessions WHERE id = 'logged-out-2'", in: database).isEmpty)
    }

    @Test("a sign-in beyond the cap revokes the user's oldest live session, reason session_limit, in the same write")
    func capRevokesOldest() async throws {
        // Given a cap of 3 and three sessions started in the same instant
        let (database, user) = try await Self.demoStudent()
        var policy = Self.policy
        policy.maxSessionsPerUser = 3
        var started: [String] = []
        for _ in 0..<3 { started.append(try await Self.signIn(user, in: database, at: Self.t0, policy: policy)) }

        // When a fourth starts
        started.append(try await Self.signIn(user, in: database, at: Self.t0, policy: policy))

        // Then the first is revoked, and why is recorded
        let live = try await Self.ids("SELECT id FROM sessions WHERE revoked_at IS NULL", in: database)
        #expect(live == Set(started.dropFirst()))
        let oldest = started[0]
        let reason = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT revoke_reason FROM sessions WHERE id = ?", arguments: [oldest])
        }
        #expect(reason == "session_limit")
    }

    @Test("the cap's and the pruning's statements read an index")
    func statementsUseIndexes() async throws {
        let (database, _) = try await Self.demoStudent()
        for sql in [
            "SELECT id FROM sessions WHERE user_id = 'u' AND revoked_at IS NULL ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET 49",
            "SELECT id FROM sessions WHERE revoked_at IS NOT NULL",
            "SELECT id FROM sessions WHERE created_at <= '2026-01-01'",
            "SELECT token_hash FROM refresh_tokens WHERE expires_at <= '2026-01-01'",
            "SELECT token_hash FROM email_tokens WHERE used_at IS NOT NULL",
            "SELECT token_hash FROM email_tokens WHERE expires_at <= '2026-01-01'",
        ] {
            let detail = try await database.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
            }
            #expect(detail.contains("USING INDEX") || detail.contains("USING COVERING INDEX"), "\(sql): \(detail)")
            #expect(!detail.contains("USE TEMP B-TREE"), "\(sql): \(detail)")
        }
    }
}

/// The same guarantees through HTTP, on a test clock.
@Suite struct SessionPruningRouteTests {
    /// The test server, with login budgets and the bcrypt queue wide enough for 60 sign-ins of one user.
    static func configuration(clock: TestClock) -> ServerConfiguration {
        var configuration = ServerConfiguration.testing(clock: clock)
        let wide = RateLimits.Rule(limit: 1_000, window: .seconds(900))
        configuration.rateLimits.loginPerAddress = wide
        configuration.rateLimits.loginPerAccount = wide
        configuration.rateLimits.loginAttemptsPerAccount = wide
        configuration.rateLimits.loginAttemptsPerAddress = wide
        configuration.maxWaitingPasswordHashes = 1_000
        return configuration
    }

    @Test("a rotated refresh token replayed after a pruning still revokes its family within its lifetime")
    func pruningKeepsReuseDetection() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given a session that rotated once
            let login = try await client.signIn(.demoStudent)
            let current = try await client.refresh(login.refreshToken, tenant: "demo").decode(TokenPair.self)

            // When a day later another sign-in prunes the tenant, and the rotated token comes back
            clock.advance(by: 86_400)
            _ = try await client.signIn(.demoTeacher)
            let replay = try await client.refresh(login.refreshToken, tenant: "demo")

            // Then the replay is refused and the family with it
            try expectProblem(replay, .unauthorized, "invalid_refresh_token")
            try expectProblem(
                try await client.refresh(current.refreshToken, tenant: "demo"), .unauthorized, "invalid_refresh_token")
        }
    }

    @Test("60 concurrent sign-ins of one user leave 50 live sessions, and the oldest session's tokens are refused")
    func capHoldsUnderConcurrentSignIns() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock: clock)) { client in
            // Given a first session
            let oldest = try await client.signIn(.demoStudent)
            clock.advance(by: 1)

            // When 60 more sign-ins of the same user race
            let pairs = try await withThrowingTaskGroup(of: TokenPair.self) { group in
                for _ in 0..<60 { group.addTask { try await client.signIn(.demoStudent) } }
                return try await group.reduce(into: [TokenPair]()) { $0.append($1) }
            }

            // Then exactly 50 of the 61 sessions still authenticate, the oldest not among them
            var live = 0
            for pair in pairs + [oldest] where try await client.me(pair.accessToken).status == .ok { live += 1 }
            #expect(live == 50)
            try expectTokenRefused(try await client.me(oldest.accessToken))
            try expectProblem(
                try await client.refresh(oldest.refreshToken, tenant: "demo"), .unauthorized, "invalid_refresh_token")
        }
    }
}
