import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// One refresh at a time, however many requests need it.
@Suite(.timeLimit(.minutes(2))) struct SingleFlightRefreshTests {
    let environment = TestEnvironment()

    /// A server whose refresh issues `fresh` (after letting other callers pile up) and whose
    /// resources accept only `fresh`.
    func server(issuing fresh: String) -> StubTransport {
        StubTransport { request in
            if request.url.path == "/v1/auth/refresh" {
                for _ in 0..<50 { await Task.yield() }
                return .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-new"))
            }
            return request.bearerToken == fresh ? .ok : .problem(401, code: "unauthorized")
        }
    }

    func runConcurrently(_ count: Int, _ client: APIClient) async throws -> [Ping] {
        try await withThrowingTaskGroup(of: Ping.self) { group in
            for index in 0..<count {
                group.addTask { try await client.execute(endpoint: .Courses.get("course-\(index)"), as: Ping.self) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("50 concurrent requests with an expired token share ONE refresh and all carry the new token")
    func fiftyConcurrentRequests() async throws {
        // Given a stored session whose access token expired a minute ago
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(60), refreshToken: "refresh-old"))
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = server(issuing: fresh)
        let client = Fixture.client(transport: transport, environment: environment, store: store)

        // When 50 requests run at once
        let results = try await runConcurrently(50, client)

        // Then the server saw one refresh, with the stored refresh token, and 50 requests with the new token
        #expect(results.count == 50 && results.allSatisfy(\.ok))
        #expect(transport.refreshCount == 1)
        #expect(transport.requests(.post, "/v1/auth/refresh").first?.jsonBody?["refresh_token"] as? String == "refresh-old")
        let resources = transport.requests.filter { $0.url.path != "/v1/auth/refresh" }
        #expect(resources.count == 50)
        #expect(resources.allSatisfy { $0.bearerToken == fresh })
        #expect(await store.load(Fixture.tokenKey)?.refreshToken == "refresh-new")
    }

    @Test("concurrent first use of a slowly loading session still refreshes once")
    func slowStoreLoadsDoNotResurrectOldTokens() async throws {
        // Given an expired session in a store whose loads finish late and out of step
        let store = await SlowTokenStore(holding: Fixture.session(expiresAt: environment.now - .seconds(60)))
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = server(issuing: fresh)
        let client = Fixture.client(transport: transport, environment: environment, store: store)

        // When 20 requests start together
        let results = try await runConcurrently(20, client)

        // Then a late load never brings back the old tokens (which would refresh a second time)
        #expect(results.count == 20)
        #expect(transport.refreshCount == 1)
        #expect(transport.requests.filter { $0.url.path != "/v1/auth/refresh" }.allSatisfy { $0.bearerToken == fresh })
    }

    @Test("a 401 triggers exactly one refresh and one retry with the new token")
    func unauthorizedRefreshesOnceAndRetries() async throws {
        // Given a token the client believes valid but the server no longer accepts
        let session = Fixture.session(expiresAt: environment.now + .seconds(900))
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = server(issuing: fresh)
        let client = Fixture.client(transport: transport, environment: environment, store: await Fixture.store(holding: session))

        // When a request is made
        let ping = try await client.execute(endpoint: .Users.me, as: Ping.self)

        // Then: request (401) → refresh → the same request again with the new token
        #expect(ping.ok)
        #expect(transport.requests.map { "\($0.method.rawValue) \($0.url.path)" } == ["GET /v1/users/me", "POST /v1/auth/refresh", "GET /v1/users/me"])
        #expect(transport.requests.map(\.bearerToken) == [session.accessToken, nil, fresh])
    }

    @Test("a retry answered 401 again is returned, not refreshed a second time")
    func secondUnauthorizedIsFinal() async throws {
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = StubTransport { request in
            request.url.path == "/v1/auth/refresh"
                ? .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-new")) : .problem(401, code: "unauthorized")
        }
        let client = Fixture.client(
            transport: transport, environment: environment,
            store: await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(900))))

        await #expect(throws: NetworkError.unauthorized(code: "unauthorized")) {
            try await client.execute(endpoint: .Users.me, as: Ping.self)
        }
        #expect(transport.refreshCount == 1)
        #expect(transport.requests(.get, "/v1/users/me").count == 2)
    }

    @Test("concurrent 401s for the same token share one refresh")
    func concurrentUnauthorizedShareRefresh() async throws {
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = server(issuing: fresh)
        let client = Fixture.client(
            transport: transport, environment: environment,
            store: await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(900))))

        let results = try await runConcurrently(10, client)

        #expect(results.count == 10)
        #expect(transport.refreshCount == 1)
    }

    @Test("an unauthenticated endpoint carries no bearer token and a 401 there is not refreshed")
    func unauthenticatedEndpoint() async throws {
        let transport = StubTransport(always: .problem(401, code: "invalid_credentials"))
        let client = Fixture.client(
            transport: transport, environment: environment,
            store: await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(900))))

        await #expect(throws: NetworkError.unauthorized(code: "invalid_credentials")) {
            try await AuthService(client: client).login(email: "ada@example.com", password: "wrong")
        }
        #expect(transport.refreshCount == 0)
        #expect(transport.requests.first?.headers["Authorization"] == nil)
        #expect(transport.requests.first?.headers["X-Tenant-ID"] == Fixture.tenantID)
    }

    @Test("without a session an authenticated request fails before reaching the server")
    func signedOut() async throws {
        let transport = StubTransport(always: .ok)
        let client = Fixture.client(transport: transport, environment: environment)

        await #expect(throws: NetworkError.unauthorized(code: "not_signed_in")) {
            try await client.execute(endpoint: .Users.me, as: Ping.self)
        }
        #expect(transport.requests.isEmpty)
    }
}
