import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// A rejected refresh ends the session; a refresh that could not reach the server keeps it.
@Suite(.timeLimit(.minutes(2))) struct SessionExpiryTests {
    let environment = TestEnvironment()

    @Test("a refresh answered 401 invalid_refresh_token clears the tokens and emits sessionExpired")
    func rejectedRefreshExpiresSession() async throws {
        // Given an expired access token and a server that rejects the refresh token
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(1)))
        let transport = StubTransport(always: .problem(401, code: "invalid_refresh_token"))
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        let events = client.sessionEvents()

        // When a request needs the session
        await #expect(throws: NetworkError.sessionExpired) {
            try await client.execute(endpoint: .Users.me, as: Ping.self)
        }

        // Then the tokens are gone, the app is told, and the request itself never went out
        #expect(await store.load(Fixture.tokenKey) == nil)
        #expect(await client.session.isSignedIn == false)
        #expect(await events.received(from: client) == [.sessionExpired])
        #expect(transport.requests.map(\.url.path) == ["/v1/auth/refresh"])
    }

    @Test("a rejected refresh after a 401 also ends the session")
    func rejectedRefreshAfterUnauthorized() async throws {
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(900)))
        let transport = StubTransport { request in
            request.url.path == "/v1/auth/refresh" ? .problem(401, code: "invalid_refresh_token") : .problem(401, code: "unauthorized")
        }
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        let events = client.sessionEvents()

        await #expect(throws: NetworkError.sessionExpired) {
            try await client.execute(endpoint: .Users.me, as: Ping.self)
        }
        #expect(await store.load(Fixture.tokenKey) == nil)
        #expect(await events.received(from: client) == [.sessionExpired])
    }

    @Test("every caller waiting on a rejected refresh gets sessionExpired, and it is emitted once")
    func waitersOnRejectedRefresh() async throws {
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(1)))
        let transport = StubTransport { _ in
            for _ in 0..<50 { await Task.yield() }
            return .problem(401, code: "invalid_refresh_token")
        }
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        let events = client.sessionEvents()

        let errors = await withTaskGroup(of: NetworkError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)
                        return nil
                    } catch {
                        return error as? NetworkError
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(errors.count == 10 && errors.allSatisfy { $0 == .sessionExpired })
        #expect(transport.refreshCount == 1)
        #expect(await events.received(from: client) == [.sessionExpired])
    }

    @Test("a refresh failing with noConnection keeps the session and sends the still-valid old token")
    func offlineRefreshKeepsSession() async throws {
        // Given a token that expires in 60 s (inside the refresh leeway) and no route to the refresh endpoint
        let session = Fixture.session(expiresAt: environment.now + .seconds(60))
        let store = await Fixture.store(holding: session)
        let transport = StubTransport { request in
            if request.url.path == "/v1/auth/refresh" { throw URLError(.notConnectedToInternet) }
            return .ok
        }
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        let events = client.sessionEvents()

        // When a request is made
        let ping = try await client.execute(endpoint: .Users.me, as: Ping.self)

        // Then the refresh was tried, the request went out with the old token, and nothing was lost
        #expect(ping.ok)
        #expect(transport.refreshCount == 1)
        #expect(transport.requests(.get, "/v1/users/me").map(\.bearerToken) == [session.accessToken])
        #expect(await store.load(Fixture.tokenKey) == session)
        #expect(await events.received(from: client).isEmpty)
    }

    @Test(
        "a refresh that fails for reasons unrelated to the token keeps the session",
        arguments: [
            StubOutcome.offline, .failure(.timedOut), .status(503), .response(.problem(429, code: "rate_limited", headers: ["Retry-After": "30"])),
        ])
    func transientRefreshFailuresKeepSession(failure: StubOutcome) async throws {
        // Given an expired access token and a refresh that cannot complete
        let session = Fixture.session(expiresAt: environment.now - .seconds(5))
        let store = await Fixture.store(holding: session)
        let transport = StubTransport(script: [failure])
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        let events = client.sessionEvents()

        // When a request is made, it fails…
        await #expect(throws: NetworkError.self) { try await client.execute(endpoint: .Users.me, as: Ping.self) }

        // …but the session survives for the next try
        #expect(await store.load(Fixture.tokenKey) == session)
        #expect(await client.session.isSignedIn)
        #expect(await events.received(from: client).isEmpty)
        #expect(transport.requests(.get, "/v1/users/me").isEmpty)
    }

    @Test("offline with an expired token the request fails with noConnection")
    func offlineExpiredToken() async throws {
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(5)))
        let client = Fixture.client(transport: StubTransport(script: [.offline]), environment: environment, store: store)
        await #expect(throws: NetworkError.noConnection) { try await client.execute(endpoint: .Users.me, as: Ping.self) }
    }

    @Test("a successful refresh stores the new tokens and emits refreshed")
    func successfulRefreshPersists() async throws {
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(5)))
        let fresh = TestJWT.make(sub: "user-1", exp: environment.now + .seconds(900))
        let transport = StubTransport { request in
            request.url.path == "/v1/auth/refresh" ? .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-2")) : .ok
        }
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        let events = client.sessionEvents()

        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)

        let stored = try #require(await store.load(Fixture.tokenKey))
        #expect(stored.accessToken == fresh && stored.refreshToken == "refresh-2")
        #expect(stored.accessTokenExpiresAt == environment.now + .seconds(900))
        #expect(await events.received(from: client) == [.refreshed])
        #expect(transport.requests(.post, "/v1/auth/refresh").first?.headers["X-Tenant-ID"] == Fixture.tenantID)
    }
}
