import Foundation
import OpenAPIRuntime
import Testing

/// `getHealth`, `getJwks`, `getOpenApiDocument`.
@Suite(.timeLimit(.minutes(3))) struct MetaContractTests {
    @Test("getHealth answers 200 with the server and database up, with the security headers")
    func healthReportsUp() async throws {
        try await ContractHarness.with { api in
            let ok = try await api.anonymous.getHealth().ok

            let health = try ok.body.json
            #expect(health.status == .ok)
            #expect(health.database == .ok)
            #expect(ok.headers.xContentTypeOptions == .nosniff)
            #expect(ok.headers.xFrameOptions == .deny)
            #expect(ok.headers.strictTransportSecurity == nil, "plain HTTP: no HSTS")
            #expect(!ok.headers.xRequestID.isEmpty)
        }
    }

    @Test("getJwks publishes the ES256 key whose kid signs access tokens, cacheable for 5 minutes")
    func jwksPublishesTheSigningKey() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let ok = try await api.anonymous.getJwks().ok

            let keys = try ok.body.json.keys
            #expect(ok.headers.cacheControl == .public_comma_MaxAge_equals_300)
            #expect(keys.allSatisfy { $0.kty == .ec && $0.crv == .p256 && $0.alg == .es256 && $0.use == .sig })
            #expect(keys.map(\.kid).contains(try JWTHeader(student.tokens.accessToken).kid))
        }
    }

    @Test("getOpenApiDocument serves this repository's openapi.yaml as application/yaml")
    func servesTheContract() async throws {
        try await ContractHarness.with { api in
            let ok = try await api.anonymous.getOpenApiDocument().ok

            let served = try await String(collecting: ok.body.yaml, upTo: 4 << 20)
            #expect(served == (try SpecDocument.loadText()))
        }
    }
}

/// The protected header of a compact JWS.
private struct JWTHeader: Decodable {
    var alg: String
    var kid: String

    init(_ token: String) throws {
        var segment = String(token.split(separator: ".").first ?? "")
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        segment += String(repeating: "=", count: (4 - segment.count % 4) % 4)
        self = try JSONDecoder().decode(JWTHeader.self, from: Data(base64Encoded: segment) ?? Data())
    }
}
