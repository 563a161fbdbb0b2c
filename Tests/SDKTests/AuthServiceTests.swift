import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) struct AuthServiceTests {
    let environment = TestEnvironment()

    @Test("login stores the issued tokens and emits signedIn")
    func loginStoresSession() async throws {
        let access = TestJWT.make(sub: "user-7", exp: environment.now + .seconds(900))
        let store = InMemoryTokenStore()
        let transport = StubTransport(always: .json(200, Fixture.tokenPair(access: access, refresh: "refresh-7", userID: "user-7")))
        let client = Fixture.client(transport: transport, environment: environment, store: store)
        let events = client.sessionEvents()

        let user = try await AuthService(client: client).login(email: "ada@example.com", password: "pw")

        #expect(user.id == "user-7")
        #expect(await store.load(Fixture.tokenKey)?.accessToken == access)
        #expect(await events.received(from: client) == [.signedIn(userID: "user-7")])
        #expect(transport.requests.first?.jsonBody?["password"] as? String == "pw")
    }

    @Test("logout while offline still forgets the session locally")
    func offlineLogout() async throws {
        let store = await Fixture.store(holding: Fixture.session(expiresAt: environment.now + .seconds(900)))
        let client = Fixture.client(transport: StubTransport(script: [.offline]), environment: environment, store: store)
        let events = client.sessionEvents()

        try await AuthService(client: client).logout()

        #expect(await store.load(Fixture.tokenKey) == nil)
        #expect(await events.received(from: client) == [.signedOut])
    }
}
