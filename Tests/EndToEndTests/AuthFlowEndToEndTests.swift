import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// The SDK's auth against a live server: every step of a session's life.
@Suite(.timeLimit(.minutes(2))) struct AuthFlowEndToEndTests {
    @Test("register, verify, login, me, proactive refresh, rotation, reuse ends the session, logout")
    func fullSessionLifecycle() async throws {
        let clock = TestClock()
        // A 150 s access token: the SDK refreshes once fewer than 120 s remain.
        try await EduGoTestServer.with({ $0 = .endToEnd(clock: clock, accessTokenLifetime: .seconds(150)) }) { server in
            let store = InMemoryTokenStore()
            let client = APIClient(
                configuration: APIConfiguration(baseURL: server.baseURL, tenantID: "demo"),
                tokenStore: store, environment: clock.sdkEnvironment)
            let auth = AuthService(client: client)
            let events = EventRecorder.recording(auth.sessionEvents)

            // Given a new account, verified through the dev mailbox
            let email = "lucia.e2e@example.com"
            try await auth.register(email: email, password: "Aprender-2026", firstName: "Lucía", lastName: "Pérez")
            let token = try await mailedToken(kind: "verify_email", to: email, client: client)
            #expect(try await auth.verifyEmail(token: token).emailVerified)

            // When the learner signs in
            let user = try await auth.login(email: email, password: "Aprender-2026")
            #expect(await events.next() == .signedIn(userID: user.id))
            #expect(try await auth.me().id == user.id)
            let first = try #require(await store.load(TokenStoreKey(tenantID: "demo")))

            // Then 40 s later (110 s left) the next call refreshes first
            clock.advance(by: 40)
            #expect(try await auth.me().email == email)
            #expect(await events.next() == .refreshed)
            let second = try #require(await store.load(TokenStoreKey(tenantID: "demo")))
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.accessToken != first.accessToken)

            // When someone replays the rotated refresh token after the grace window
            clock.advance(by: 11)
            let replay = try await client.send(
                endpoint: .Auth.refresh, body: Data(#"{"refresh_token":"\#(first.refreshToken)"}"#.utf8))
            #expect(replay.statusCode == 401)

            // Then the whole family is revoked: the SDK's next call ends the session
            await #expect(throws: NetworkError.sessionExpired) { try await auth.me() }
            #expect(await events.next() == .sessionExpired)
            #expect(await store.load(TokenStoreKey(tenantID: "demo")) == nil)

            // And signing in again then out revokes the new session on the server
            _ = try await auth.login(email: email, password: "Aprender-2026")
            #expect(await events.next() == .signedIn(userID: user.id))
            let live = try #require(await store.load(TokenStoreKey(tenantID: "demo")))
            try await auth.logout()
            #expect(await events.next() == .signedOut)
            #expect(await store.load(TokenStoreKey(tenantID: "demo")) == nil)
            let afterLogout = try await client.send(
                endpoint: Endpoint(.get, ["auth", "me"], requiresAuthentication: false),
                headers: ["Authorization": "Bearer \(live.accessToken)"])
            #expect(afterLogout.statusCode == 401)
        }
    }

    @Test("a rate-limited login surfaces as rateLimited with the server's Retry-After")
    func rateLimitedLogin() async throws {
        let clock = TestClock()
        var limits = RateLimits.standard
        limits.loginPerAccount = .init(limit: 2, window: .seconds(900))
        try await EduGoTestServer.with({ $0 = .endToEnd(clock: clock, rateLimits: limits) }) { server in
            let client = APIClient(
                configuration: APIConfiguration(baseURL: server.baseURL, tenantID: "demo"),
                environment: clock.sdkEnvironment)
            let auth = AuthService(client: client)
            for _ in 0..<2 {
                await #expect(throws: NetworkError.unauthorized(code: "invalid_credentials")) {
                    try await auth.login(email: Demo.studentEmail, password: "wrong-password")
                }
            }
            await #expect(throws: NetworkError.rateLimited(retryAfter: .seconds(900))) {
                try await auth.login(email: Demo.studentEmail, password: Demo.studentPassword)
            }
        }
    }

    @Test("a server that goes away mid-session gives noConnection and the tokens survive")
    func serverStoppedMidSession() async throws {
        let clock = TestClock()
        let server = try await EduGoTestServer.start { $0 = .endToEnd(clock: clock) }
        let store = InMemoryTokenStore()
        let client = APIClient(
            configuration: APIConfiguration(baseURL: server.baseURL, tenantID: "demo"),
            tokenStore: store, environment: clock.sdkEnvironment)
        let auth = AuthService(client: client)
        _ = try await auth.login(email: Demo.studentEmail, password: Demo.studentPassword)
        let before = try #require(await store.load(TokenStoreKey(tenantID: "demo")))

        await server.stop()
        await #expect(throws: NetworkError.noConnection) { try await auth.me() }
        // Even when the token is due for a refresh, an unreachable server keeps the session.
        clock.advance(by: 800)
        await #expect(throws: NetworkError.noConnection) { try await auth.me() }
        #expect(await store.load(TokenStoreKey(tenantID: "demo")) == before)
        await server.shutdown()
    }
}
