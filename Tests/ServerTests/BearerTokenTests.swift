import Testing

@testable import EduGoServer

@Suite(.timeLimit(.minutes(3))) struct BearerTokenTests {
    @Test("the Bearer scheme is matched case-insensitively and the token loses the spaces and tabs around it")
    func parsesBearerTokens() {
        #expect(BearerToken.from("Bearer abc.def.ghi") == "abc.def.ghi")
        #expect(BearerToken.from("bearer \t abc.def.ghi \t ") == "abc.def.ghi")
        #expect(BearerToken.from("BEARER abc") == "abc")
    }

    @Test("another scheme, a longer word or a missing token is not a Bearer token")
    func refusesOtherHeaders() {
        #expect(BearerToken.from("Basic YWJjOmRlZg==") == nil)
        #expect(BearerToken.from("Bearerx abc") == nil)
        #expect(BearerToken.from("Bearer") == nil)
        #expect(BearerToken.from("Bearer    ") == "")
    }
}
