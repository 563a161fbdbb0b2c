import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The access token is refreshed before it expires, not after the server refuses it.
@Suite(.timeLimit(.minutes(2))) struct ProactiveRefreshTests {
    let environment = TestEnvironment()

    /// A client whose stored token expires `secondsLeft` from now, against a server that
    /// issues a 15-minute token on refresh and accepts any token.
    func client(secondsLeft: Int) async -> (APIClient, StubTransport, fresh: String) {
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = StubTransport { request in
            request.url.path == "/v1/auth/refresh" ? .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-2")) : .ok
        }
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(secondsLeft)))
        return (Fixture.client(transport: transport, environment: environment, store: store), transport, fresh)
    }

    @Test("a token expiring within 120 s is refreshed before the request", arguments: [120, 119, 30, 1])
    func refreshWithinLeeway(secondsLeft: Int) async throws {
        let (client, transport, fresh) = await client(secondsLeft: secondsLeft)
        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)
        #expect(transport.requests.map(\.url.path) == ["/v1/auth/refresh", "/v1/users/me"])
        #expect(transport.requests.last?.bearerToken == fresh)
    }

    @Test("a token with more than 120 s left is sent as is", arguments: [121, 900])
    func noRefreshOutsideLeeway(secondsLeft: Int) async throws {
        let (client, transport, _) = await client(secondsLeft: secondsLeft)
        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)
        #expect(transport.refreshCount == 0)
    }

    @Test("as the clock reaches the leeway the next request refreshes")
    func clockDrivesRefresh() async throws {
        let (client, transport, fresh) = await client(secondsLeft: 900)
        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)
        environment.advance(by: .seconds(780))
        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)
        #expect(transport.refreshCount == 1)
        #expect(transport.requests.last?.bearerToken == fresh)
    }

    @Test("the new expiry comes from the token's exp claim, not expires_in")
    func expiryFromClaim() async throws {
        let shortLived = TestJWT.make(exp: environment.now + .seconds(600))
        let transport = StubTransport { request in
            request.url.path == "/v1/auth/refresh" ? .json(200, Fixture.tokenPair(access: shortLived, refresh: "r2")) : .ok
        }
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now))
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)
        #expect(await client.session.currentTokens()?.accessTokenExpiresAt == environment.now + .seconds(600))
    }
}
