import Foundation
import Synchronization
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// A refresh whose answer arrives after the session changed (sign-out, another user's sign-in)
/// is dropped; a rotated token that cannot be saved is reported, and not left spent on disk.
@Suite(.timeLimit(.minutes(1))) struct RefreshFenceTests {
    let environment = TestEnvironment()

    /// A server whose refresh answers `answer` only once the test releases it.
    final class GatedRefreshServer: Sendable {
        let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation
        private let released: AsyncStream<Void>
        private let releaseContinuation: AsyncStream<Void>.Continuation
        let answer: APIResponse

        init(answer: APIResponse) {
            (started, startedContinuation) = AsyncStream.makeStream()
            (released, releaseContinuation) = AsyncStream.makeStream()
            self.answer = answer
        }

        var transport: StubTransport {
            StubTransport { [self] request in
                guard request.url.path == "/v1/auth/refresh" else { return .ok }
                startedContinuation.yield()
                for await _ in released { break }
                return answer
            }
        }

        func release() { releaseContinuation.yield() }
    }

    func sessionOfB() -> SessionTokens {
        SessionTokens(
            accessToken: TestJWT.make(exp: environment.now + .seconds(900)), refreshToken: "refresh-b",
            accessTokenExpiresAt: environment.now + .seconds(900), userID: "user-b", tenantID: Fixture.tenantID)
    }

    /// Starts a refresh of A's expired session, signs A out and B in while it runs, then lets it answer.
    func refreshAcrossASessionChange(answer: APIResponse) async throws -> (APIClient, InMemoryTokenStore, Result<String, any Error>, [SessionEvent]) {
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(60), refreshToken: "refresh-a"))
        let server = GatedRefreshServer(answer: answer)
        let client = Fixture.client(transport: server.transport, environment: environment, store: store)
        let events = client.sessionEvents()

        let refreshing = Task { try await client.session.validAccessToken() }
        _ = await collect(server.started, timeout: .seconds(10)) { !$0.isEmpty }
        await client.session.clear(emitting: .signedOut)
        try await client.session.signIn(sessionOfB())
        server.release()
        let outcome = await refreshing.result

        // Everything emitted so far, the late answer's doing included (the stream buffers)
        let seen = await collect(events, timeout: .milliseconds(300)) { _ in false }
        #expect(seen.contains(.signedIn(userID: "user-b")))
        return (client, store, outcome, seen)
    }

    @Test("a refresh answered after sign-out and another sign-in never overwrites the new user's tokens")
    func lateSuccessIsDropped() async throws {
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let (client, store, outcome, _) = try await refreshAcrossASessionChange(
            answer: .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-a2", userID: "user-1")))

        #expect(throws: NetworkError.unauthorized(code: "session_changed")) { try outcome.get() }
        #expect(await client.session.currentTokens()?.userID == "user-b")
        #expect(await store.load(Fixture.tokenKey)?.refreshToken == "refresh-b")
    }

    @Test("a refresh rejected after sign-out does not sign the next user out")
    func lateRejectionIsDropped() async throws {
        let (client, store, outcome, events) = try await refreshAcrossASessionChange(
            answer: .problem(401, code: "refresh_token_revoked"))
        #expect(!events.contains(.sessionExpired))

        #expect(throws: NetworkError.unauthorized(code: "session_changed")) { try outcome.get() }
        #expect(await client.session.currentTokens()?.userID == "user-b")
        #expect(await store.load(Fixture.tokenKey)?.refreshToken == "refresh-b")
    }

    @Test("a refresh answered after a plain sign-out leaves the session signed out")
    func lateSuccessAfterSignOutIsDropped() async throws {
        // Given a refresh of A's expired session under way
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now - .seconds(60), refreshToken: "refresh-a"))
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let server = GatedRefreshServer(answer: .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-a2", userID: "user-1")))
        let client = Fixture.client(transport: server.transport, environment: environment, store: store)
        let events = client.sessionEvents()
        let refreshing = Task { try await client.session.validAccessToken() }
        _ = await collect(server.started, timeout: .seconds(10)) { !$0.isEmpty }

        // When A signs out (nobody signs in after) and then the refresh answers with new tokens
        await client.session.clear(emitting: .signedOut)
        server.release()
        let outcome = await refreshing.result

        // Then the answer is dropped: signed out in memory and on disk, and no refresh announced
        #expect(throws: NetworkError.unauthorized(code: "session_changed")) { try outcome.get() }
        #expect(await client.session.currentTokens() == nil)
        #expect(await store.load(Fixture.tokenKey) == nil)
        let seen = await collect(events, timeout: .milliseconds(300)) { _ in false }
        #expect(seen.contains(.signedOut))
        #expect(!seen.contains(.refreshed))
    }

    /// A token store whose saves fail after the first.
    actor FailingSaveStore: TokenStore {
        private let inner = InMemoryTokenStore()
        struct SaveFailed: Error {}

        init(holding tokens: SessionTokens) async {
            await inner.save(tokens, for: Fixture.tokenKey)
        }

        func load(_ key: TokenStoreKey) async throws -> SessionTokens? { await inner.load(key) }
        func save(_ tokens: SessionTokens, for key: TokenStoreKey) async throws { throw SaveFailed() }
        func remove(_ key: TokenStoreKey) async throws { await inner.remove(key) }
    }

    @Test("a rotated token that cannot be saved is reported and the spent one is not left on disk")
    func failedSaveIsSurfaced() async throws {
        let store = await FailingSaveStore(holding: Fixture.session(expiresAt: environment.now - .seconds(60), refreshToken: "refresh-a"))
        let fresh = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = StubTransport { request in
            request.url.path == "/v1/auth/refresh" ? .json(200, Fixture.tokenPair(access: fresh, refresh: "refresh-a2")) : .ok
        }
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        let events = client.sessionEvents()

        // The request still goes out with the new token
        #expect(try await client.session.validAccessToken() == fresh)

        let seen = await collect(events, timeout: .seconds(5)) { $0.contains(.refreshed) }
        #expect(seen.contains(.tokenStorageFailed))
        #expect(try await store.load(Fixture.tokenKey) == nil)
    }
}
