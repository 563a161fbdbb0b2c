import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// No log line, at any level, may contain a credential.
@Suite(.timeLimit(.minutes(2))) struct LoggingRedactionTests {
    /// Every secret a request or response below carries; none may reach the log.
    static let secrets = [
        "SECRET-BEARER-abc123", "SECRET-COOKIE", "SECRET-QUERY-TOKEN", "SECRET-QUERY-ACCESS", "SECRET-PASSWORD",
        "SECRET-NEW-PASSWORD", "SECRET-NESTED-REFRESH", "SECRET-ARRAY-TOKEN", "SECRET-DEEP-ACCESS",
        "SECRET-RESPONSE-ACCESS", "SECRET-RESPONSE-REFRESH", "SECRET-SET-COOKIE", "SECRET-UPPERCASE-TOKEN",
    ]

    /// A request full of secrets next to harmless fields.
    static var request: APIRequest {
        let endpoint = Endpoint(
            .post, ["auth", "login"],
            query: [
                URLQueryItem(name: "token", value: "SECRET-QUERY-TOKEN"), URLQueryItem(name: "page", value: "2"),
                URLQueryItem(name: "access_token", value: "SECRET-QUERY-ACCESS"),
            ])
        let body: [String: Any] = [
            "email": "ada@example.com",
            "password": "SECRET-PASSWORD",
            "new_password": "SECRET-NEW-PASSWORD",
            "profile": ["refresh_token": "SECRET-NESTED-REFRESH", "nickname": "countess"],
            "devices": [["token": "SECRET-ARRAY-TOKEN", "name": "iPad"], ["name": "Mac"]],
            "nested": [["levels": [["access_token": "SECRET-DEEP-ACCESS"]]]],
            "Token": "SECRET-UPPERCASE-TOKEN",
        ]
        return APIRequest(
            endpoint: endpoint, url: try! endpoint.url(relativeTo: Fixture.baseURL),
            headers: [
                "Authorization": "Bearer SECRET-BEARER-abc123", "Cookie": "sid=SECRET-COOKIE", "X-Tenant-ID": "demo",
                "Content-Type": "application/json",
            ],
            body: try! JSONSerialization.data(withJSONObject: body), timeout: .seconds(30))
    }

    static let response = APIResponse.json(
        200,
        [
            "access_token": "SECRET-RESPONSE-ACCESS", "refresh_token": "SECRET-RESPONSE-REFRESH", "expires_in": 900,
            "token_type": "Bearer", "user": Fixture.user(),
        ],
        headers: ["Set-Cookie": "sid=SECRET-SET-COOKIE", "X-Request-ID": "req-42"])

    /// Sends `request` through a logging interceptor at `level` and returns what was logged.
    func logged(at level: LoggingInterceptor.Level, answer: StubOutcome = .response(response)) async -> String {
        let capture = LogCapture()
        let chain = InterceptorChain(
            interceptors: [LoggingInterceptor(level: level, logger: capture.logger())],
            transport: StubTransport(script: [answer]))
        _ = try? await chain.send(Self.request)
        return capture.text
    }

    @Test("no secret is logged at any level", arguments: LoggingInterceptor.Level.allCases)
    func secretsNeverLogged(level: LoggingInterceptor.Level) async {
        let text = await logged(at: level)
        #expect(!text.isEmpty)
        for secret in Self.secrets {
            #expect(!text.contains(secret), "\(secret) leaked at \(level): \(text)")
        }
    }

    @Test("the minimal level logs method, path, harmless query items and status")
    func minimalKeepsUsefulFields() async {
        let text = await logged(at: .minimal)
        #expect(text.contains("POST"))
        #expect(text.contains("/v1/auth/login"))
        #expect(text.contains("page=2"))
        #expect(text.contains("status=200"))
        #expect(!text.contains("X-Tenant-ID"))
        #expect(!text.contains("ada@example.com"))
    }

    @Test("the standard level adds headers, with secret ones redacted")
    func standardKeepsHeaders() async {
        let text = await logged(at: .standard)
        #expect(text.contains("X-Tenant-ID: demo"))
        #expect(text.contains("X-Request-ID: req-42"))
        #expect(text.contains("Authorization: [REDACTED]"))
        #expect(!text.contains("ada@example.com"))
    }

    @Test("the verbose level adds bodies, with secret members redacted at any depth")
    func verboseKeepsHarmlessBodyFields() async {
        let text = await logged(at: .verbose)
        for visible in ["ada@example.com", "countess", "iPad", "Mac", "Lovelace", "expires_in"] {
            #expect(text.contains(visible), "\(visible) missing at verbose")
        }
        #expect(text.contains("[REDACTED]"))
    }

    @Test("a failed request is logged without its secrets", arguments: LoggingInterceptor.Level.allCases)
    func failuresNeverLogSecrets(level: LoggingInterceptor.Level) async {
        let text = await logged(at: level, answer: .offline)
        #expect(text.contains("noConnection"))
        for secret in Self.secrets { #expect(!text.contains(secret)) }
    }

    @Test("lower-case secret header names are redacted too")
    func lowerCaseHeaders() {
        let described = LoggingInterceptor.describe(headers: ["authorization": "Bearer SECRET", "proxy-authorization": "Basic SECRET"])
        #expect(!described.contains("SECRET"))
    }

    @Test("a non-JSON body is summarised by size, never echoed")
    func nonJSONBody() {
        #expect(LoggingInterceptor.redact(body: Data("password=SECRET&user=ada".utf8)) == "<24 bytes>")
    }

    @Test("token query parameters are redacted in any case", arguments: ["token", "Token", "REFRESH_TOKEN", "password"])
    func tokenQueryParameter(name: String) throws {
        let url = try #require(URL(string: "https://api.edugo.test/v1/auth/verify-email?\(name)=SECRET-Q&lang=es"))
        let redacted = LoggingInterceptor.redact(url: url)
        #expect(!redacted.contains("SECRET-Q"))
        #expect(redacted.contains("lang=es"))
    }

    @Test("signing in and refreshing at verbose level never logs the password or the tokens")
    func clientFlowAtVerbose() async throws {
        // Given a client logging everything, and a server that issues tokens and then makes them refresh
        let environment = TestEnvironment()
        let capture = LogCapture()
        let access1 = TestJWT.make(exp: environment.now + .seconds(900))
        let access2 = TestJWT.make(exp: environment.now + .seconds(1800))
        let transport = StubTransport { request in
            switch request.url.path {
            case "/v1/auth/login": .json(200, Fixture.tokenPair(access: access1, refresh: "refresh-secret-1"))
            case "/v1/auth/refresh": .json(200, Fixture.tokenPair(access: access2, refresh: "refresh-secret-2"))
            default: request.bearerToken == access2 ? .ok : .problem(401, code: "unauthorized")
            }
        }
        let client = Fixture.client(transport: transport, environment: environment, logLevel: .verbose, logger: capture.logger())

        // When the user signs in, verifies an email with a token link, and a request needs a refresh
        try await AuthService(client: client).login(email: "ada@example.com", password: "correct horse battery")
        _ = try? await client.send(endpoint: .Auth.verifyEmail(token: "verify-secret-link"))
        _ = try await client.execute(endpoint: .Users.me, as: Ping.self)

        // Then the log tells the story without a single credential
        let text = capture.text
        #expect(text.contains("/v1/auth/login") && text.contains("/v1/auth/refresh") && text.contains("ada@example.com"))
        for secret in ["correct horse battery", access1, access2, "refresh-secret-1", "refresh-secret-2", "verify-secret-link"] {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
    }
}
