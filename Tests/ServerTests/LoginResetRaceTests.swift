import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// A sign-in that verified the old password while a reset committed
/// must not leave a session behind. The interleaving is made by hand (read, reset, insert), so
/// the tests do not depend on timing.
@Suite(.timeLimit(.minutes(3))) struct LoginResetRaceTests {
    static let email = "student1@demo.edugo.dev"

    /// Resets `email`'s password through the store, as `POST /v1/auth/reset-password` does.
    static func resetPassword(of email: String, in store: TenantStore, to newHash: String) async throws {
        let token = SecureToken.generate()
        let now = Date()
        _ = try await store.issueEmailToken(
            emailKey: UserRecord.emailKey(email), kind: .resetPassword, tokenHash: SecureToken.hash(token), now: now,
            expiresAt: now.addingTimeInterval(3600), policy: ServerConfiguration.testing().sessionPolicy,
            eligible: { _ in true })
        try await store.resetPassword(tokenHash: SecureToken.hash(token), newPasswordHash: newHash, now: now)
    }

    /// A new session and its first refresh token for `user`.
    static func newSession(for user: UserRecord) -> (SessionRecord, RefreshTokenRecord) {
        let id = RecordID.make()
        let now = Date()
        return (
            SessionRecord(id: id, userId: user.id, createdAt: now),
            RefreshTokenRecord(
                tokenHash: SecureToken.hash(SecureToken.generate()), sessionId: id, issuedAt: now,
                expiresAt: now.addingTimeInterval(3600))
        )
    }

    static func sessionCount(of userID: String, in database: TenantDatabase) async throws -> Int {
        try await database.writer.read { db in
            try SessionRecord.filter(Column("user_id") == userID).fetchCount(db)
        }
    }

    @Test("a session verified against a password hash that a reset replaced is refused and leaves no row")
    func staleCredentialStartsNoSession() async throws {
        // Given a sign-in that read the account (its hash) before a reset committed
        let database = try await TenantStoreTests.demoTenant()
        let store = TenantStore(database)
        let stale = try #require(try await store.user(emailKey: UserRecord.emailKey(Self.email)))
        try await Self.resetPassword(of: Self.email, in: store, to: PasswordHasher(cost: 4).hash("Brand-New-Pass-1"))

        // When it inserts its session with the hash it verified
        let (session, refreshToken) = Self.newSession(for: stale)
        let started = try await store.startSession(
            session, refreshToken: refreshToken, verifiedPasswordHash: stale.passwordHash,
            policy: ServerConfiguration.testing().sessionPolicy)

        // Then nothing is written
        #expect(started == nil)
        #expect(try await Self.sessionCount(of: stale.id, in: database) == 0)
        let token = try await database.writer.read { db in try RefreshTokenRecord.fetchOne(db, key: refreshToken.tokenHash) }
        #expect(token == nil)
    }

    @Test("a session verified against the current password hash is inserted and returns the account")
    func currentCredentialStartsSession() async throws {
        // Given an account whose password was reset before the sign-in read it
        let database = try await TenantStoreTests.demoTenant()
        let store = TenantStore(database)
        try await Self.resetPassword(of: Self.email, in: store, to: PasswordHasher(cost: 4).hash("Brand-New-Pass-1"))
        let current = try #require(try await store.user(emailKey: UserRecord.emailKey(Self.email)))

        // When the sign-in inserts its session with the hash it verified
        let (session, refreshToken) = Self.newSession(for: current)
        let started = try await store.startSession(
            session, refreshToken: refreshToken, verifiedPasswordHash: current.passwordHash,
            policy: ServerConfiguration.testing().sessionPolicy)

        // Then the session exists
        #expect(started?.id == current.id)
        #expect(try await Self.sessionCount(of: current.id, in: database) == 1)
    }

    @Test("a login whose password check straddled a reset answers 401 invalid_credentials and issues no tokens")
    func loginAcrossResetIsRefused() async throws {
        try await withServer(exposing: .testing()) { client, deps in
            // Given the account as a login read it before verifying the old password
            let tenant = try await deps.tenants.store(for: try #require(TenantID("demo")))
            let stale = try #require(try await tenant.user(emailKey: UserRecord.emailKey(Self.email)))
            // and a reset that commits while that login awaits bcrypt
            _ = try await client.forgotPassword(Self.email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: Self.email, tenant: "demo")
            #expect(
                try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "demo").status
                    == .noContent)

            // When the login goes on to start its session
            let error = await #expect(throws: APIError.self) {
                try await SessionIssuer(deps: deps).startSession(for: stale, in: tenant)
            }

            // Then it is refused like a wrong password, and the new password still signs in
            #expect(error?.status == .unauthorized)
            #expect(error?.code == "invalid_credentials")
            let fresh = try await client.login(email: Self.email, password: "Brand-New-Pass-1", tenant: "demo")
            #expect(fresh.status == .ok)
        }
    }
}
