import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Two processes (an app and its extension, two `edugo` commands) share one token store: a
/// refresh re-reads it first, so tokens the other process rotated are adopted instead of
/// refreshing with a spent refresh token (which the server takes as reuse and revokes the session).
@Suite(.timeLimit(.minutes(1))) struct SharedTokenStoreTests {
    let environment = TestEnvironment()

    @Test("tokens another process rotated are adopted; the spent refresh token is never sent")
    func adoptsTokensAnotherProcessStored() async throws {
        // Given this process's session, loaded, whose access token expired
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(60), refreshToken: "refresh-old"))
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = StubTransport { request in
            if request.url.path == "/v1/auth/refresh" { return .problem(401, code: "refresh_token_reused") }
            return request.bearerToken == fresh ? .ok : .problem(401, code: "unauthorized")
        }
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        #expect(await client.session.currentTokens()?.refreshToken == "refresh-old")
        // And another process refreshed meanwhile and stored the new pair
        let rotated = SessionTokens(
            accessToken: fresh, refreshToken: "refresh-new", accessTokenExpiresAt: environment.now + .seconds(900),
            userID: "user-1", tenantID: Fixture.tenantID)
        await store.save(rotated, for: Fixture.tokenKey)

        // When this process calls the API
        let ping = try await client.execute(endpoint: .Courses.get("course-1"), as: Ping.self)

        // Then it used the other process's tokens, without a refresh of its own
        #expect(ping == Ping(ok: true))
        #expect(transport.requests(.post, "/v1/auth/refresh").isEmpty)
        #expect(await client.session.currentTokens() == rotated)
    }

    @Test("when the other process's access token is also due, the refresh uses its refresh token, not the spent one")
    func refreshesWithTheStoredRefreshToken() async throws {
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(60), refreshToken: "refresh-old"))
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = StubTransport { request in
            if request.url.path == "/v1/auth/refresh" {
                return .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-newest"))
            }
            return request.bearerToken == fresh ? .ok : .problem(401, code: "unauthorized")
        }
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        _ = await client.session.currentTokens()
        await store.save(
            Fixture.session(expiresAt: environment.now - .seconds(1), refreshToken: "refresh-other"), for: Fixture.tokenKey)

        _ = try await client.execute(endpoint: .Courses.get("course-1"), as: Ping.self)

        let sent = transport.requests(.post, "/v1/auth/refresh").compactMap { OfflineFixture.object($0.body)["refresh_token"] as? String }
        #expect(sent == ["refresh-other"])
    }
}
