import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) struct AccessTokenClaimsTests {
    let exp = Date(timeIntervalSince1970: 1_800_000_900)

    @Test("the claims of a server-shaped access token are read")
    func readsClaims() throws {
        let claims = try #require(AccessTokenClaims(jwt: TestJWT.make(sub: "user-42", tid: "escuela-norte", role: "teacher", exp: exp)))
        #expect(claims == AccessTokenClaims(expiresAt: exp, subject: "user-42", tenantID: "escuela-norte", role: "teacher"))
    }

    @Test("base64url characters and missing padding are handled")
    func base64URLPayload() throws {
        // Given a payload whose base64 form needs `-`, `_` and padding
        let payload = Data(#"{"exp":1800000900,"role":"student","sub":"ü>>>???~~~","tid":"demo","x":"ab"}"#.utf8)
        let token = TestJWT.make(payload: payload)
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        let encodedPayload = String(parts[1])
        try #require(encodedPayload.contains("-") || encodedPayload.contains("_"))
        try #require(payload.count % 3 != 0)
        // Then it still decodes
        #expect(AccessTokenClaims(jwt: token)?.subject == "ü>>>???~~~")
    }

    @Test(
        "anything that is not a JWT with exp, sub, tid and role gives no claims",
        arguments: [
            "", "opaque-refresh-token", "a.b", "a.b.c.d", "header.!!!not-base64!!!.sig",
            TestJWT.make(payload: Data("[1,2,3]".utf8)),
            TestJWT.make(payload: Data(#"{"sub":"u","tid":"t","role":"student"}"#.utf8)),
            TestJWT.make(payload: Data(#"{"exp":"tomorrow","sub":"u","tid":"t","role":"student"}"#.utf8)),
            TestJWT.make(payload: Data(#"{"exp":1800000900,"sub":"u","role":"student"}"#.utf8)),
        ])
    func notAJWT(token: String) {
        #expect(AccessTokenClaims(jwt: token) == nil)
    }

    @Test("session tokens take their expiry and tenant from the claims")
    func sessionTokensFromClaims() throws {
        let access = TestJWT.make(tid: "escuela-norte", exp: exp)
        let response = try decodeTokenResponse(access: access)
        let tokens = response.sessionTokens(tenantID: "demo", now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(tokens.accessTokenExpiresAt == exp)
        #expect(tokens.tenantID == "escuela-norte")
        #expect(tokens.userID == "user-1")
    }

    @Test("an opaque access token expires after expires_in")
    func sessionTokensFromExpiresIn() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let tokens = try decodeTokenResponse(access: "opaque").sessionTokens(tenantID: "demo", now: now)
        #expect(tokens.accessTokenExpiresAt == now.addingTimeInterval(900))
        #expect(tokens.tenantID == "demo")
    }

    func decodeTokenResponse(access: String) throws -> TokenResponse {
        let body = try JSONSerialization.data(withJSONObject: Fixture.tokenPair(access: access, refresh: "r"))
        return try JSONCoding.decoder.decode(TokenResponse.self, from: body)
    }
}

extension AccessTokenClaims {
    init(expiresAt: Date, subject: String, tenantID: String, role: String) {
        let payload = Data(
            #"{"exp":\#(Int(expiresAt.timeIntervalSince1970)),"sub":"\#(subject)","tid":"\#(tenantID)","role":"\#(role)"}"#.utf8)
        self = AccessTokenClaims(jwt: TestJWT.make(payload: payload))!
    }
}
