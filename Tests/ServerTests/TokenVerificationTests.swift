import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

@Suite(.timeLimit(.minutes(3))) struct TokenVerificationTests {
    // MARK: Lifetime

    @Test("an access token is accepted while the clock stands still on the second it was issued")
    func freshTokenIsAccepted() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let pair = try await client.signIn(.demoStudent)

            #expect(try await client.me(pair.accessToken).status == .ok)
        }
    }

    @Test("an access token is still accepted 899 seconds after issue")
    func tokenValidUntilExpiry() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let pair = try await client.signIn(.demoStudent)

            clock.advance(by: 899)

            #expect(try await client.me(pair.accessToken).status == .ok)
        }
    }

    @Test("an access token past its 900 seconds answers 401 with a Bearer invalid_token challenge")
    func expiredTokenIsRefused() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let pair = try await client.signIn(.demoStudent)

            clock.advance(by: 901)
            let response = try await client.me(pair.accessToken)

            try expectTokenRefused(response)
            #expect(try response.decode(Problem.self).detail.contains("expired"))
        }
    }

    @Test("a token that verified once (and is cached) is still refused once it expires")
    func cachedTokenExpires() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let pair = try await client.signIn(.demoStudent)
            #expect(try await client.me(pair.accessToken).status == .ok)

            clock.advance(by: 901)
            let response = try await client.me(pair.accessToken)

            try expectTokenRefused(response)
            #expect(try response.decode(Problem.self).detail.contains("expired"))
        }
    }

    @Test("the verified-token cache skips only the signature: expiry is checked on every hit, a changed token is a miss")
    func verifiedTokenCache() async throws {
        let clock = TestClock()
        let signingKey = try SigningKey.loadOrCreate(storage: .inMemory)
        let tokens = await TokenService(signingKey: signingKey, configuration: .testing(clock: clock))
        let demo = try #require(TenantID("demo"))
        let token = try await tokens.issue(userID: "u1", tenantID: demo, role: .student, sessionID: "s1")

        #expect(try await tokens.verify(token).sid == "s1")
        #expect(tokens.verified.count == 1)
        #expect(try await tokens.verify(token).sub.value == "u1")
        #expect(tokens.verified.count == 1)

        var altered = try CompactJWT(token)
        var payload = try altered.payload
        payload["role"] = "admin"
        altered.payloadSegment = try CompactJWT.segment(payload)
        await #expect(throws: APIError.self) { try await tokens.verify(altered.compact) }
        #expect(tokens.verified.count == 1)

        clock.advance(by: 901)
        await #expect(throws: APIError.self) { try await tokens.verify(token) }
    }

    @Test("a token whose nbf lies in the future is refused")
    func notYetValidTokenIsRefused() async throws {
        let clock = TestClock()
        try await withServerSharingSigningKey(clock: clock) { client, signingKey in
            let pair = try await client.signIn(.demoStudent)
            let claims = try CompactJWT(pair.accessToken).payload
            let sessionID = try #require(claims["sid"] as? String)
            // A token the server's own key signed, but issued one minute ahead of the server's clock.
            let ahead = TestClock(clock.now.addingTimeInterval(60))
            let future = ServerConfiguration.testing(clock: ahead)
            let tokens = await TokenService(signingKey: signingKey, configuration: future)
            let token = try await tokens.issue(
                userID: pair.user.id, tenantID: try #require(TenantID("demo")), role: .student, sessionID: sessionID)

            try expectTokenRefused(try await client.me(token))
            clock.advance(by: 60)
            #expect(try await client.me(token).status == .ok)
        }
    }

    // MARK: Forgery

    @Test("a token whose payload was altered (role raised to admin) is refused")
    func tamperedPayloadIsRefused() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoStudent)
            var token = try CompactJWT(pair.accessToken)
            var payload = try token.payload
            payload["role"] = "admin"

            token.payloadSegment = try CompactJWT.segment(payload)

            try expectTokenRefused(try await client.me(token.compact))
        }
    }

    @Test("a token whose signature was altered is refused")
    func tamperedSignatureIsRefused() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoStudent)
            var token = try CompactJWT(pair.accessToken)
            var signature = try #require(token.signature)
            signature[signature.startIndex + 5] ^= 0x01

            token.signatureSegment = Base64URL.encode(signature)

            try expectTokenRefused(try await client.me(token.compact))
        }
    }

    @Test("an unsigned token (alg none) is refused", arguments: ["none", "None", "NONE"])
    func unsignedTokenIsRefused(algorithm: String) async throws {
        try await withServer { client in
            let genuine = try CompactJWT(try await client.signIn(.demoStudent).accessToken)
            var header = try genuine.header
            header["alg"] = algorithm

            let forged = try CompactJWT(header: header, payload: try genuine.payload)

            try expectTokenRefused(try await client.me(forged.compact))
        }
    }

    /// The forms in which an attacker could feed the server's public key to HMAC.
    enum PublicKeyForm: String, CaseIterable, Sendable {
        case pem, pemWithoutTrailingNewline, der, x963, raw

        func secret(of key: P256.Signing.PublicKey) -> Data {
            switch self {
            case .pem: Data((key.pemRepresentation + "\n").utf8)
            case .pemWithoutTrailingNewline: Data(key.pemRepresentation.utf8)
            case .der: key.derRepresentation
            case .x963: key.x963Representation
            case .raw: key.rawRepresentation
            }
        }
    }

    @Test("an HS256 token keyed with the server's public key is refused", arguments: PublicKeyForm.allCases)
    func algorithmConfusionIsRefused(form: PublicKeyForm) async throws {
        try await withServer { client in
            let genuine = try CompactJWT(try await client.signIn(.demoStudent).accessToken)
            let jwk = try #require(try await client.send(.get, "/.well-known/jwks.json").decode(JWKSBody.self).keys.first)
            var header = try genuine.header
            header["alg"] = "HS256"
            var forged = try CompactJWT(header: header, payload: try genuine.payload)

            forged.sign(hmacSecret: form.secret(of: try jwk.publicKey()))

            try expectTokenRefused(try await client.me(forged.compact))
        }
    }

    @Test("a token signed by a foreign ES256 key under an unknown kid is refused")
    func foreignKeyUnknownKidIsRefused() async throws {
        try await withServer { client in
            let genuine = try CompactJWT(try await client.signIn(.demoStudent).accessToken)
            var header = try genuine.header
            header["kid"] = "attacker-key-1"
            var forged = try CompactJWT(header: header, payload: try genuine.payload)

            try forged.sign(with: P256.Signing.PrivateKey())

            try expectTokenRefused(try await client.me(forged.compact))
        }
    }

    @Test("a token signed by a foreign ES256 key under the server's kid is refused")
    func foreignKeyServerKidIsRefused() async throws {
        try await withServer { client in
            let genuine = try CompactJWT(try await client.signIn(.demoStudent).accessToken)
            var forged = try CompactJWT(header: try genuine.header, payload: try genuine.payload)

            try forged.sign(with: P256.Signing.PrivateKey())

            try expectTokenRefused(try await client.me(forged.compact))
        }
    }

    @Test("a token without a kid is refused even when the server's key signed it")
    func missingKidIsRefused() async throws {
        let clock = TestClock()
        try await withServerSharingSigningKey(clock: clock) { client, signingKey in
            let genuine = try CompactJWT(try await client.signIn(.demoStudent).accessToken)
            var header = try genuine.header
            header["kid"] = nil
            var forged = try CompactJWT(header: header, payload: try genuine.payload)
            let key = try P256.Signing.PrivateKey(pemRepresentation: signingKey.privateKey.pemRepresentation)

            try forged.sign(with: key)

            try expectTokenRefused(try await client.me(forged.compact))
        }
    }

    @Test("a token the server's key signed for another issuer or audience is refused")
    func foreignIssuerOrAudienceIsRefused() async throws {
        let clock = TestClock()
        try await withServerSharingSigningKey(clock: clock) { client, signingKey in
            // Given a live session and a token service holding the server's own signing key
            let pair = try await client.signIn(.demoStudent)
            let sessionID = try #require(try CompactJWT(pair.accessToken).payload["sid"] as? String)
            let demo = try #require(TenantID("demo"))
            func token(issuer: String = "edugo-server", audience: String = "edugo-app") async throws -> String {
                var configuration = ServerConfiguration.testing(clock: clock)
                configuration.tokens.issuer = issuer
                configuration.tokens.audience = audience
                let tokens = await TokenService(signingKey: signingKey, configuration: configuration)
                return try await tokens.issue(userID: pair.user.id, tenantID: demo, role: .student, sessionID: sessionID)
            }

            // Then the right issuer and audience pass (control), a wrong one of either fails
            #expect(try await client.me(try await token()).status == .ok)
            try expectTokenRefused(try await client.me(try await token(issuer: "https://evil.example")))
            try expectTokenRefused(try await client.me(try await token(audience: "another-app")))
        }
    }

    @Test("a token that is not a JWT at all is refused", arguments: ["", "abc", "a.b.c", "a.b", "...."])
    func garbageIsRefused(token: String) async throws {
        try await withServer { client in
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(token)"

            try expectTokenRefused(try await client.send(.get, "/v1/auth/me", headers: headers))
        }
    }

    // MARK: Independent verification

    @Test("the JWKS publishes one P-256 ES256 signing key")
    func jwksShape() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/.well-known/jwks.json")

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "public, max-age=300")
            let keys = try response.decode(JWKSBody.self).keys
            #expect(keys.count == 1)
            let key = try #require(keys.first)
            #expect(key.kty == "EC")
            #expect(key.crv == "P-256")
            #expect(key.alg == "ES256")
            #expect(key.use == "sig")
            #expect(!key.kid.isEmpty)
            _ = try key.publicKey()
            let members = try #require((try response.jsonObject()["keys"] as? [[String: Any]])?.first)
            #expect(Set(members.keys) == ["kty", "crv", "alg", "use", "kid", "x", "y"])
        }
    }

    @Test("an access token verifies against the JWKS with an independent ES256 verifier")
    func tokenVerifiesAgainstJWKS() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given a token and the published key
            let pair = try await client.signIn(.demoStudent)
            let jwk = try #require(try await client.send(.get, "/.well-known/jwks.json").decode(JWKSBody.self).keys.first)
            let token = try CompactJWT(pair.accessToken)

            // When swift-crypto checks the raw r‖s signature over "header.payload"
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(token.signature))
            let valid = try jwk.publicKey().isValidSignature(signature, for: token.signingInput)

            // Then it is valid, and header and claims are the documented ones
            #expect(valid)
            let header = try token.header
            #expect(header["alg"] as? String == "ES256")
            #expect(header["kid"] as? String == jwk.kid)
            let claims = try token.payload
            #expect(Set(claims.keys) == ["iss", "aud", "sub", "tid", "role", "sid", "iat", "nbf", "exp", "jti"])
            #expect(claims["iss"] as? String == "edugo-server")
            let audience = claims["aud"] as? String ?? (claims["aud"] as? [String])?.first
            #expect(audience == "edugo-app")
            #expect(claims["sub"] as? String == pair.user.id)
            #expect(claims["tid"] as? String == "demo")
            #expect(claims["role"] as? String == "student")
            #expect((claims["sid"] as? String).map { !$0.isEmpty } == true)
            #expect((claims["jti"] as? String).map { !$0.isEmpty } == true)
            let issuedAt = try #require((claims["iat"] as? NSNumber)?.doubleValue)
            #expect(issuedAt == clock.now.timeIntervalSince1970)
            #expect((claims["nbf"] as? NSNumber)?.doubleValue == issuedAt)
            #expect((claims["exp"] as? NSNumber)?.doubleValue == issuedAt + 900)
        }
    }

    @Test("every issued token has its own jti and every login its own sid")
    func tokensAreUnique() async throws {
        try await withServer { client in
            let first = try CompactJWT(try await client.signIn(.demoStudent).accessToken).payload
            let second = try CompactJWT(try await client.signIn(.demoStudent).accessToken).payload

            #expect(first["jti"] as? String != second["jti"] as? String)
            #expect(first["sid"] as? String != second["sid"] as? String)
        }
    }
}
