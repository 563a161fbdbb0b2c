import Foundation
import Logging

@_spi(EduGoInternals) @testable import EduGoSDK

/// Values and builders shared by the SDK tests.
enum Fixture {
    static let baseURL = URL(string: "https://api.edugo.test")!
    static let tenantID = "demo"
    static let tokenKey = TokenStoreKey(tenantID: tenantID)

    /// The headers every EduGo response carries (the security guard checks them).
    static let securityHeaders = ["X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"]

    static func configuration(
        baseURL: URL = baseURL, retryPolicy: RetryPolicy = .none, logLevel: LoggingInterceptor.Level = .minimal
    ) -> APIConfiguration {
        var configuration = APIConfiguration(baseURL: baseURL, tenantID: tenantID, retryPolicy: retryPolicy, logLevel: logLevel)
        // The stub transports cannot stream, and TestEnvironment's sleep returns at once: a running
        // engine would pull back to back instead of every minute. The live stream's own tests
        // (EndToEndTests) run against a real server.
        configuration.liveUpdates = false
        return configuration
    }

    static func client(
        transport: StubTransport, environment: TestEnvironment = TestEnvironment(),
        store: any TokenStore = InMemoryTokenStore(), retryPolicy: RetryPolicy = .none,
        baseURL: URL = baseURL, logLevel: LoggingInterceptor.Level = .minimal, logger: Logger = .silent
    ) -> APIClient {
        APIClient(
            configuration: configuration(baseURL: baseURL, retryPolicy: retryPolicy, logLevel: logLevel),
            transport: transport, tokenStore: store, environment: environment.sdk, logger: logger)
    }

    static func request(
        _ method: HTTPMethod = .get, path: [String] = ["courses"], headers: [String: String] = [:]
    ) -> APIRequest {
        let endpoint = Endpoint(method, path)
        // Force-try: the fixture base URL is valid.
        return APIRequest(
            endpoint: endpoint, url: try! endpoint.url(relativeTo: baseURL), headers: headers, timeout: .seconds(30))
    }

    static func user(id: String = "user-1", email: String = "ada@example.com") -> [String: Any] {
        [
            "id": id, "email": email, "first_name": "Ada", "last_name": "Lovelace", "role": "student",
            "email_verified": true, "version": 1, "created_at": "2026-11-20T09:00:00Z",
            "updated_at": "2026-11-20T09:00:00Z",
        ]
    }

    /// The body of a login or refresh answer.
    static func tokenPair(access: String, refresh: String, userID: String = "user-1") -> [String: Any] {
        ["access_token": access, "refresh_token": refresh, "expires_in": 900, "token_type": "Bearer", "user": user(id: userID)]
    }

    /// A stored session whose access token expires at `expiresAt`.
    static func session(expiresAt: Date, refreshToken: String = "refresh-0", userID: String = "user-1") -> SessionTokens {
        SessionTokens(
            accessToken: TestJWT.make(exp: expiresAt), refreshToken: refreshToken, accessTokenExpiresAt: expiresAt,
            userID: userID, tenantID: tenantID)
    }

    /// An in-memory store already holding `tokens`.
    static func store(holding tokens: SessionTokens) async -> InMemoryTokenStore {
        let store = InMemoryTokenStore()
        await store.save(tokens, for: tokenKey)
        return store
    }
}

/// A minimal decodable answer.
struct Ping: Codable, Sendable, Equatable {
    var ok: Bool
}

extension APIResponse {
    /// A JSON response with the security headers.
    static func json(_ status: Int, _ object: Any, headers: [String: String] = [:]) -> APIResponse {
        // Force-try: fixtures are always valid JSON.
        let body = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return APIResponse(
            statusCode: status,
            headers: Fixture.securityHeaders.merging(["Content-Type": "application/json"]) { $1 }.merging(headers) { $1 },
            body: body)
    }

    static let ok = APIResponse.json(200, ["ok": true])

    /// An RFC 9457 problem shaped like the server's.
    static func problem(
        _ status: Int, code: String, extra: [String: Any] = [:], headers: [String: String] = [:]
    ) -> APIResponse {
        var body: [String: Any] = [
            "type": "urn:edugo:problem:\(code)", "title": "Error", "status": status, "detail": "A \(code) problem.",
            "instance": "/v1/test", "code": code, "request_id": "0f7b4c9e2d1a4b6c",
        ]
        body.merge(extra) { $1 }
        var response = json(status, body, headers: headers)
        response.headers["Content-Type"] = "application/problem+json"
        return response
    }
}
