import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// At most 5 refreshes in 30 s, so a server that keeps refusing fresh tokens cannot cause a loop.
@Suite(.timeLimit(.minutes(2))) struct RefreshWindowTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Offers the window one attempt at each offset from `start` and returns its answers.
    func admissions(_ window: inout RefreshWindow, at offsets: [Duration]) -> [Bool] {
        offsets.map { window.admit(at: start + $0) }
    }

    @Test("five refreshes within 30 s are admitted and the sixth is refused")
    func sixthRefused() {
        var window = RefreshWindow()
        #expect(admissions(&window, at: (0..<6).map { .seconds($0) }) == [true, true, true, true, true, false])
    }

    @Test("a refresh is admitted again once the oldest is 30 s old")
    func slidesAfterInterval() {
        var window = RefreshWindow()
        _ = admissions(&window, at: (0..<5).map { .seconds($0) })
        #expect(admissions(&window, at: [.milliseconds(29_999), .seconds(30), .seconds(30)]) == [false, true, false])
    }

    @Test("a refused attempt does not count against the window")
    func refusalsNotCounted() {
        var window = RefreshWindow(limit: 1, interval: .seconds(10))
        let answers = admissions(&window, at: (0...10).map { .seconds($0) })
        #expect(answers == [true] + Array(repeating: false, count: 9) + [true])
    }

    /// A server on which every request costs a refresh: a token issued by a refresh is accepted
    /// once, any other token is answered 401.
    func revokingServer(_ environment: TestEnvironment) -> StubTransport {
        let state = Locked((issued: [String](), accepted: Set<String>()))
        return StubTransport { request in
            if request.url.path == "/v1/auth/refresh" {
                let fresh = TestJWT.make(exp: environment.now + .seconds(900))
                state.withLock { $0.issued.append(fresh) }
                return .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-\(fresh.suffix(6))"))
            }
            let accepted = state.withLock { state -> Bool in
                guard let token = request.bearerToken, state.issued.contains(token), !state.accepted.contains(token) else {
                    return false
                }
                state.accepted.insert(token)
                return true
            }
            return accepted ? .ok : .problem(401, code: "unauthorized")
        }
    }

    @Test("the refresh window stops a sixth refresh within 30 s, and admits one after")
    func windowThroughClient() async throws {
        // Given a server that makes every request refresh
        let environment = TestEnvironment()
        let server = revokingServer(environment)
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(900)))
        let client = Fixture.client(transport: server, environment: environment, store: store)

        // When five requests each cost a refresh
        for _ in 0..<5 { _ = try await client.execute(endpoint: .Users.me, as: Ping.self) }
        #expect(server.refreshCount == 5)

        // Then the sixth within the window is refused without calling the server
        await #expect(throws: NetworkError.unauthorized(code: "refresh_window_exceeded")) {
            try await client.execute(endpoint: .Users.me, as: Ping.self)
        }
        #expect(server.refreshCount == 5)
        #expect(await client.session.isSignedIn)

        // And 30 s later refreshing works again
        environment.advance(by: .seconds(30))
        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)
        #expect(server.refreshCount == 6)
    }

    @Test("when the window is full, a token that has not expired yet is still used")
    func fullWindowFallsBackToValidToken() async throws {
        // Given a server that only ever issues tokens expiring inside the refresh leeway
        let environment = TestEnvironment()
        let transport = StubTransport { request in
            request.url.path == "/v1/auth/refresh"
                ? .json(200, Fixture.tokenPair(access: TestJWT.make(exp: environment.now + .seconds(90)), refresh: "r")) : .ok
        }
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(90)))
        let client = Fixture.client(transport: transport, environment: environment, store: store)

        // When more requests are made than the window allows refreshes
        for _ in 0..<8 { _ = try await client.execute(endpoint: .Users.me, as: Ping.self) }

        // Then five refreshes happened and every request still went out
        #expect(transport.refreshCount == 5)
        #expect(transport.requests(.get, "/v1/users/me").count == 8)
    }

    @Test("offline, repeated requests keep failing with noConnection, never a refresh-window refusal")
    func offlineNeverBlamesTheSession() async throws {
        // Given a token inside the leeway and no network at all
        let environment = TestEnvironment()
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(100)))
        let client = Fixture.client(transport: StubTransport(script: [.offline]), environment: environment, store: store, retryPolicy: .default)

        // When the app keeps trying
        for _ in 0..<4 {
            await #expect(throws: NetworkError.noConnection) { try await client.execute(endpoint: .Users.me, as: Ping.self) }
        }
        #expect(await client.session.isSignedIn)
    }
}
