import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(3))) struct HTTPHygieneTests {
    static let defaultHSTS = "max-age=31536000; includeSubDomains"

    /// The headers every response must carry, errors and 404s included.
    static func expectSecurityHeaders(
        _ response: TestResponse, hsts: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let headers = response.headers
        #expect(headers[.xContentTypeOptions] == "nosniff", sourceLocation: sourceLocation)
        #expect(headers[.xFrameOptions] == "DENY", sourceLocation: sourceLocation)
        #expect(
            headers[.contentSecurityPolicy] == "default-src 'none'; frame-ancestors 'none'",
            sourceLocation: sourceLocation)
        #expect(headers[.referrerPolicy] == "no-referrer", sourceLocation: sourceLocation)
        #expect(headers[.crossOriginOpenerPolicy] == "same-origin", sourceLocation: sourceLocation)
        #expect(headers[.crossOriginResourcePolicy] == "same-origin", sourceLocation: sourceLocation)
        #expect(headers[.strictTransportSecurity] == hsts, sourceLocation: sourceLocation)
        #expect(headers[.cacheControl]?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(headers[.server] == nil, sourceLocation: sourceLocation)
        let requestID = headers[.xRequestID] ?? ""
        #expect(isWellFormedRequestID(requestID), "X-Request-ID: \(requestID)", sourceLocation: sourceLocation)
    }

    static func isWellFormedRequestID(_ value: String) -> Bool {
        (1...128).contains(value.count)
            && value.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
            }
    }

    /// One kind of response the server gives, and how to provoke it.
    enum Scenario: String, CaseIterable, Sendable {
        case ok, notFound, methodNotAllowed, payloadTooLarge, unauthorized, unsupportedMediaType, badRequest

        var status: HTTPResponse.Status {
            switch self {
            case .ok: .ok
            case .notFound: .notFound
            case .methodNotAllowed: .methodNotAllowed
            case .payloadTooLarge: .contentTooLarge
            case .unauthorized: .unauthorized
            case .unsupportedMediaType: .unsupportedMediaType
            case .badRequest: .badRequest
            }
        }

        func send(_ client: some TestClientProtocol) async throws -> TestResponse {
            switch self {
            case .ok: try await client.send(.get, "/health")
            case .notFound: try await client.send(.get, "/v1/no-such-thing")
            case .methodNotAllowed: try await client.send(.delete, "/health")
            case .payloadTooLarge:
                try await client.send(
                    .post, "/v1/auth/login", tenant: "demo", json: String(repeating: " ", count: 2048) + "{}")
            case .unauthorized: try await client.send(.get, "/v1/auth/me")
            case .unsupportedMediaType:
                try await client.send(.post, "/v1/auth/login", tenant: "demo", json: "{}", contentType: "text/plain")
            case .badRequest: try await client.send(.post, "/v1/auth/login", tenant: "demo", json: "{")
            }
        }
    }

    static var smallBodyConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration.testing()
        configuration.maxBodySize = 1024
        return configuration
    }

    @Test("every kind of response carries the security headers and no Server banner", arguments: Scenario.allCases)
    func securityHeadersEverywhere(scenario: Scenario) async throws {
        try await withServer(Self.smallBodyConfiguration) { client in
            let response = try await scenario.send(client)

            #expect(response.status == scenario.status, "body: \(response.text)")
            Self.expectSecurityHeaders(response)
            if scenario != .ok {
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }
    }

    @Test("an unexpected error answers 500 internal_error with the security headers and no internal detail")
    func unexpectedErrorIsOpaque() async throws {
        // Given a router behind the production hygiene middlewares with a route that fails
        struct DatabaseExploded: Error, CustomStringConvertible {
            var description: String { "SQLITE_CORRUPT: SELECT password_hash FROM users at /var/lib/edugo/demo.sqlite" }
        }
        let router = Router(context: EduGoRequestContext.self)
        HTTPHygiene(maxBodySize: 1024, strictTransportSecurity: Self.defaultHSTS).install(on: router)
        router.get("/explode") { _, _ -> Response in throw DatabaseExploded() }

        try await Application(router: router).test(.router) { client in
            // When the route is called
            let response = try await client.send(.get, "/explode")

            // Then the client learns only that something failed
            let problem = try expectProblem(response, .internalServerError, "internal_error")
            Self.expectSecurityHeaders(response)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(problem.instance == "/explode")
            for leak in ["SQLITE", "SELECT", "password_hash", "/var/lib", "DatabaseExploded"] {
                #expect(!response.text.contains(leak), "500 body leaks \(leak)")
            }
        }
    }

    @Test("an unknown path answers 404 not_found as problem+json")
    func unknownPathIsNotFound() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/v1/definitely/not/here")

            let problem = try expectProblem(response, .notFound, "not_found")
            #expect(problem.instance == "/v1/definitely/not/here")
            #expect(response.headers[.allow] == nil)
        }
    }

    @Test(
        "an unsupported method on a known path answers 405 method_not_allowed with Allow",
        arguments: [
            (HTTPRequest.Method.delete, "/health", "GET, HEAD"), (.post, "/.well-known/jwks.json", "GET, HEAD"),
            (.get, "/v1/auth/login", "POST"), (.put, "/v1/auth/me", "GET, HEAD"), (.get, "/v1/auth/logout", "POST"),
            (.head, "/v1/auth/login", "POST"), (.options, "/v1/courses", "GET, HEAD, POST"),
            (HTTPRequest.Method("QUERY") ?? .get, "/health", "GET, HEAD"),
        ])
    func unsupportedMethodIsNotAllowed(method: HTTPRequest.Method, path: String, allow: String) async throws {
        try await withServer { client in
            let response = try await client.send(method, path)

            try expectProblem(response, .methodNotAllowed, "method_not_allowed")
            #expect(response.headers[.allow] == allow)
        }
    }

    @Test("HEAD answers as GET would, headers and status, without a body", arguments: ["/health", "/v1/courses", "/v1/auth/me"])
    func headMirrorsGet(path: String) async throws {
        try await withServer { client in
            let caller = try await client.caller(.demoStudent)

            let get = try await client.send(.get, path, tenant: "demo", bearer: caller.token)
            let head = try await client.send(.head, path, tenant: "demo", bearer: caller.token)

            #expect(head.status == get.status)
            #expect(head.body.readableBytes == 0)
            #expect(get.body.readableBytes > 0)
            #expect(head.headers[.contentType] == get.headers[.contentType])
            #expect(head.headers[.cacheControl] == get.headers[.cacheControl])
            #expect(head.headers[.eTag] == get.headers[.eTag])
            #expect(head.headers[.xContentTypeOptions] == get.headers[.xContentTypeOptions])
        }
    }

    @Test("a problem body has exactly the RFC 9457 members plus code and request_id")
    func problemShape() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/v1/auth/me")

            let members = try response.jsonObject()
            #expect(Set(members.keys) == ["type", "title", "status", "detail", "instance", "code", "request_id"])
            let problem = try response.decode(Problem.self)
            #expect(problem.title == "Unauthorized")
            #expect(problem.instance == "/v1/auth/me")
            #expect(problem.requestId == response.headers[.xRequestID])
        }
    }

    @Test("9,000 unknown members answer a small problem: 20 errors, a count, and no echo of the input in detail")
    func errorAmplificationIsCapped() async throws {
        try await withServer { client in
            let admin = try await client.signIn(.demoAdmin)
            // Given a ~1 MB course body of 9,000 unknown members (under the 10,000-value bound),
            // one of them with a very long name
            var members = (0..<9_000).map { #""k\#($0)":0"# }
            members[0] = #"""# + String(repeating: "n", count: 900_000) + #"":0"#
            let body = "{" + members.joined(separator: ",") + "}"

            // When it is sent to an endpoint that names every unknown member
            let response = try await client.send(.post, "/v1/courses", bearer: admin.accessToken, json: body)

            // Then the answer is a bounded validation problem
            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(response.body.readableBytes < 8_192, "\(response.body.readableBytes) bytes")
            #expect(problem.errors?.count == 20)
            // (9,000 unknown members, and the missing title and category: an unknown member hides nothing)
            #expect(try response.jsonObject()["error_count"] as? Int == 9_002)
            #expect(problem.detail.count < 300)
            #expect((problem.errors ?? []).allSatisfy { $0.field.count <= 65 })
        }
    }

    @Test("a validation problem lists its field errors with field, code and message")
    func validationProblemShape() async throws {
        try await withServer { client in
            let response = try await client.register(.newcomer("bad"))

            let members = try response.jsonObject()
            #expect(Set(members.keys) == [
                "type", "title", "status", "detail", "instance", "code", "request_id", "errors",
            ])
            let errors = try #require(members["errors"] as? [[String: Any]])
            #expect(errors.allSatisfy { Set($0.keys) == ["field", "code", "message"] })
        }
    }

    @Test("X-Request-ID echoes a well-formed client value, in headers and problem bodies")
    func requestIDIsEchoed() async throws {
        try await withServer { client in
            var headers = HTTPFields()
            headers[.xRequestID] = "client-req_42.A"

            let ok = try await client.send(.get, "/health", headers: headers)
            let problem = try await client.send(.get, "/nowhere", headers: headers)

            #expect(ok.headers[.xRequestID] == "client-req_42.A")
            #expect(problem.headers[.xRequestID] == "client-req_42.A")
            #expect(try problem.decode(Problem.self).requestId == "client-req_42.A")
        }
    }

    @Test(
        "X-Request-ID replaces a malformed client value with a generated one",
        arguments: ["has space", String(repeating: "a", count: 129), "ñandú", "<script>", "a/b", "id;drop"])
    func malformedRequestIDIsReplaced(supplied: String) async throws {
        try await withServer { client in
            var headers = HTTPFields()
            headers[.xRequestID] = supplied

            let response = try await client.send(.get, "/health", headers: headers)

            let answered = response.headers[.xRequestID] ?? ""
            #expect(answered != supplied)
            #expect(Self.isWellFormedRequestID(answered))
        }
    }

    @Test("a 128-character request id is still echoed")
    func longestRequestIDIsEchoed() async throws {
        try await withServer { client in
            let supplied = String(repeating: "r", count: 128)
            var headers = HTTPFields()
            headers[.xRequestID] = supplied

            let response = try await client.send(.get, "/health", headers: headers)

            #expect(response.headers[.xRequestID] == supplied)
        }
    }

    @Test("each request without an id gets its own generated one")
    func generatedRequestIDsDiffer() async throws {
        try await withServer { client in
            let first = try await client.send(.get, "/health").headers[.xRequestID]
            let second = try await client.send(.get, "/health").headers[.xRequestID]

            #expect(first != nil)
            #expect(first != second)
        }
    }

    @Test("GET /health answers status ok and database ok")
    func healthIsOK() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/health")

            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let body = try response.jsonObject()
            #expect(body.count == 2)
            #expect(body["status"] as? String == "ok")
            #expect(body["database"] as? String == "ok")
        }
    }

    @Test("Strict-Transport-Security is not sent over plain HTTP, even when a client claims X-Forwarded-Proto: https")
    func noHSTSOverPlainHTTP() async throws {
        try await withServer { client in
            let plain = try await client.send(.get, "/health")
            let claimed = try await client.send(.get, "/health", headers: [.xForwardedProto: "https"])

            Self.expectSecurityHeaders(plain, hsts: nil)
            #expect(claimed.headers[.strictTransportSecurity] == nil)
        }
    }

    @Test("behind --trust-forwarded-proto, X-Forwarded-Proto: https gets the configured Strict-Transport-Security")
    func hstsBehindTrustedTLSProxy() async throws {
        var custom = ServerConfiguration.testing()
        custom.trustForwardedProto = true
        custom.strictTransportSecurity = "max-age=60"
        var off = custom
        off.strictTransportSecurity = nil

        let (viaTLS, viaHTTP) = try await withServer(custom) { client in
            (
                try await client.send(.get, "/health", headers: [.xForwardedProto: "https"]).headers[.strictTransportSecurity],
                try await client.send(.get, "/health", headers: [.xForwardedProto: "http"]).headers[.strictTransportSecurity]
            )
        }
        let offResponse = try await withServer(off) { client in
            try await client.send(.get, "/nowhere", headers: [.xForwardedProto: "https"])
        }

        #expect(viaTLS == "max-age=60")
        #expect(viaHTTP == nil)
        Self.expectSecurityHeaders(offResponse, hsts: nil)
    }

    @Test("GET /openapi.yaml serves the contract as YAML")
    func openAPIIsServed() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/openapi.yaml")

            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/yaml") == true)
            #expect(response.text.contains("openapi: 3.1.0"))
            Self.expectSecurityHeaders(response)
        }
    }

    @Test("a chunked body without Content-Length that outgrows the limit answers 413 payload_too_large")
    func chunkedBodyOverLimit() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.maxBodySize = 1024
        let app = try await buildApplication(configuration)
        try await app.test(.live) { client in
            // Given a real socket and a body of unknown length (sent chunked)
            let port = try #require(client.port)
            var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/v1/auth/register")))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("demo", forHTTPHeaderField: "X-Tenant-ID")
            let body = #"{"email": ""# + String(repeating: "a", count: 4096) + #""}"#
            request.httpBodyStream = InputStream(data: Data(body.utf8))
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }

            // When it is sent
            let (data, response) = try await session.data(for: request)

            // Then the server stops reading at the limit and says so
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 413)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
            #expect(try TestJSON.decoder.decode(Problem.self, from: data).code == "payload_too_large")
        }
    }
}
