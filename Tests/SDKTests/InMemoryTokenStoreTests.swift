import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) struct InMemoryTokenStoreTests {
    let tokens = SessionTokens(
        accessToken: "a", refreshToken: "r", accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_000), userID: "u",
        tenantID: "demo")

    @Test("saved tokens load back, per key, until removed")
    func roundTrip() async {
        let store = InMemoryTokenStore()
        let other = TokenStoreKey(tenantID: "demo", account: "second")
        await store.save(tokens, for: Fixture.tokenKey)
        #expect(await store.load(Fixture.tokenKey) == tokens)
        #expect(await store.load(other) == nil)
        await store.remove(Fixture.tokenKey)
        #expect(await store.load(Fixture.tokenKey) == nil)
    }
}
