import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The live-session cache answers an authenticated request without a database read, so every
/// event that ends a session or changes its user must still take effect on the very next
/// request: each test first makes a request that fills the cache, then checks the next one.
@Suite(.timeLimit(.minutes(3))) struct LiveSessionCacheTests {
    @Test("after logout the very next request with the access token is refused")
    func logout() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoStudent)
            #expect(try await client.me(pair.accessToken).status == .ok)

            #expect(try await client.send(.post, "/v1/auth/logout", bearer: pair.accessToken).status == .noContent)

            try expectTokenRefused(try await client.me(pair.accessToken))
        }
    }

    @Test("after refresh-token reuse revokes the family the very next request is refused")
    func refreshReuse() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let login = try await client.signIn(.demoStudent)
            let current = try await client.refresh(login.refreshToken, tenant: "demo").decode(TokenPair.self)
            #expect(try await client.me(current.accessToken).status == .ok)

            clock.advance(by: 11)
            try expectProblem(
                try await client.refresh(login.refreshToken, tenant: "demo"), .unauthorized, "invalid_refresh_token")

            try expectTokenRefused(try await client.me(current.accessToken))
        }
    }

    @Test("after a password reset the very next request with an old access token is refused")
    func passwordReset() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoStudent)
            #expect(try await client.me(pair.accessToken).status == .ok)

            _ = try await client.forgotPassword(Credentials.demoStudent.email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: Credentials.demoStudent.email, tenant: "demo")
            #expect(try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "demo").status == .noContent)

            try expectTokenRefused(try await client.me(pair.accessToken))
        }
    }

    @Test("after a role change the very next request runs with the new role")
    func roleChange() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let email = "cached.admin@demo.edugo.dev"
            _ = try await client.send(
                .post, "/v1/users", as: admin,
                body: ["email": email, "password": "Cached-Admin-1", "first_name": "C", "last_name": "A", "role": "admin"])
            let other = try await client.caller(Credentials(email: email, password: "Cached-Admin-1", tenant: "demo"))
            #expect(try await client.get("/v1/users", as: other).status == .ok)

            let demoted = try await client.send(
                .patch, "/v1/users/\(other.id)", as: admin, body: ["role": "student", "version": other.user.version])
            #expect(demoted.status == .ok, "body: \(demoted.text)")

            #expect(try await client.get("/v1/users", as: other).status == .forbidden)
        }
    }

    @Test("after a user is deleted the very next request with their token is refused")
    func userDeletion() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let email = "deleted.soon@demo.edugo.dev"
            _ = try await client.send(
                .post, "/v1/users", as: admin,
                body: ["email": email, "password": "Deleted-Soon-1", "first_name": "D", "last_name": "S", "role": "student"])
            let doomed = try await client.caller(Credentials(email: email, password: "Deleted-Soon-1", tenant: "demo"))
            #expect(try await client.me(doomed.token).status == .ok)

            #expect(try await client.delete("/v1/users/\(doomed.id)", as: admin).status == .noContent)

            try expectTokenRefused(try await client.me(doomed.token))
        }
    }

    @Test("a second lookup of a live session is answered from the cache, not the database")
    func liveSessionsAreCached() async throws {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("cache")), at: nil)
        let store = TenantStore(database)
        let user = SessionAndRoleTests.user(id: "u1", email: "u1@example.com")
        let now = Date()
        try await database.writer.write { db in
            try user.insert(db)
            try db.execute(
                sql: "INSERT INTO sessions (id, user_id, created_at) VALUES ('s1', 'u1', ?)", arguments: [now])
        }
        let key = LiveSessionKey(sessionID: "s1", userID: "u1")
        guard case .miss = database.liveSessions.lookup(key) else {
            Issue.record("cached before any lookup")
            return
        }

        #expect(try await store.user(inLiveSession: "s1", userID: "u1")?.id == "u1")

        guard case .hit(let cached) = database.liveSessions.lookup(key) else {
            Issue.record("the live session was not cached")
            return
        }
        #expect(cached.id == "u1")
    }

    @Test("an answer read before an invalidating commit is not stored after it")
    func staleAnswersAreNotStored() throws {
        let cache = LiveSessionCache()
        let key = LiveSessionKey(sessionID: "s", userID: "u")
        guard case .miss(let epoch) = cache.lookup(key) else {
            Issue.record("empty cache answered a hit")
            return
        }

        cache.invalidate()
        cache.store(SessionAndRoleTests.user(id: "u", email: "u@example.com"), for: key, readAt: epoch)

        guard case .miss = cache.lookup(key) else {
            Issue.record("an answer from before the invalidation was kept")
            return
        }
    }

    @Test("the cache starts again empty when it reaches its capacity")
    func cacheIsBounded() {
        let cache = LiveSessionCache(capacity: 2)
        for index in 0..<3 {
            let key = LiveSessionKey(sessionID: "s\(index)", userID: "u")
            cache.store(SessionAndRoleTests.user(id: "u", email: "u@example.com"), for: key, readAt: 0)
        }
        if case .hit = cache.lookup(LiveSessionKey(sessionID: "s0", userID: "u")) {
            Issue.record("the cache grew past its capacity")
        }
        if case .miss = cache.lookup(LiveSessionKey(sessionID: "s2", userID: "u")) {
            Issue.record("the newest session was not kept")
        }
    }
}
