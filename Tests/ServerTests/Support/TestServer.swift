import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import EduGoServer

// MARK: - Configuration and server

extension ServerConfiguration {
    /// An in-memory, seeded, dev-mode server on a test clock, with a cheap bcrypt cost.
    static func testing(clock: TestClock = TestClock()) -> ServerConfiguration {
        ServerConfiguration(
            port: 0, storage: .inMemory, devMode: true, seedDemoData: true, logLevel: .critical,
            passwordHashCost: 4, rateLimits: .testing, now: { clock.now })
    }
}

extension RateLimits {
    /// The standard limits, with room for the registrations a test makes from one address.
    static var testing: RateLimits {
        var limits = RateLimits.standard
        limits.registerPerAddress = .init(limit: 1_000, window: .seconds(3600))
        return limits
    }
}

/// Builds the application for `configuration` and drives it in-process (`.router`).
@discardableResult
func withServer<Value: Sendable>(
    _ configuration: ServerConfiguration = .testing(),
    _ test: @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    let app = try await buildApplication(configuration)
    return try await app.test(.router, test)
}

/// Runs `body` with a fresh temporary directory that is removed afterwards.
func withTemporaryDirectory<Value>(_ body: (URL) async throws -> Value) async throws -> Value {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("edugo-tests-\(UUID().uuidString.lowercased())", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A server on a temporary data directory whose ES256 signing key the test holds too, so that it
/// can mint tokens the server's key really signed (with other issuers, audiences or tenants).
func withServerSharingSigningKey<Value: Sendable>(
    clock: TestClock,
    _ test: @Sendable (any TestClientProtocol, SigningKey) async throws -> Value
) async throws -> Value {
    try await withTemporaryDirectory { directory in
        let storage = ServerConfiguration.Storage.directory(directory)
        let signingKey = try SigningKey.loadOrCreate(storage: storage)
        var configuration = ServerConfiguration.testing(clock: clock)
        configuration.storage = storage
        return try await withServer(configuration) { client in try await test(client, signingKey) }
    }
}

// MARK: - Accounts

/// Who signs in where.
struct Credentials: Sendable {
    var email: String
    var password: String
    var tenant: String

    static let demoAdmin = Credentials(email: "admin@demo.edugo.dev", password: "Demo-Admin-2026", tenant: "demo")
    static let demoTeacher = Credentials(email: "teacher1@demo.edugo.dev", password: "Demo-Teacher-2026", tenant: "demo")
    static let demoStudent = Credentials(email: "student1@demo.edugo.dev", password: "Demo-Student-2026", tenant: "demo")
    static let acmeAdmin = Credentials(email: "admin@acme.example", password: "Demo-Admin-2026", tenant: "acme")

    /// A fresh account to register in the demo tenant.
    static func newcomer(_ email: String = "ana.garcia@example.com", tenant: String = "demo") -> Credentials {
        Credentials(email: email, password: "Correct-Horse-9", tenant: tenant)
    }
}

// MARK: - Response bodies, decoded independently of the server's own types

struct UserBody: Decodable, Equatable {
    var id: String
    var email: String
    var firstName: String
    var lastName: String
    var role: String
    var emailVerified: Bool
    var version: Int
    var createdAt: String
    var updatedAt: String
}

struct TokenPair: Decodable {
    var accessToken: String
    var refreshToken: String
    var expiresIn: Int
    var tokenType: String
    var user: UserBody
}

struct Problem: Decodable {
    struct FieldError: Decodable {
        var field: String
        var code: String
        var message: String
    }

    var type: String
    var title: String
    var status: Int
    var detail: String
    var instance: String
    var code: String
    var requestId: String
    var errors: [FieldError]?
    /// Why a cursor expired (`cursor_expired`).
    var reason: String?
}

struct MailItem: Decodable {
    var id: String
    var to: String
    var kind: String
    var subject: String
    var body: String
    var token: String
    var createdAt: String
}

struct Mailbox: Decodable {
    var items: [MailItem]
}

enum TestJSON {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    /// A JSON object body with string members, keys sorted.
    static func body(_ members: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(members)) ?? Data(), as: UTF8.self)
    }
}

/// Failures of the test helpers themselves (an unexpected answer on a precondition path).
struct HelperFailure: Error, CustomStringConvertible {
    var description: String
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var data: Data { Data(text.utf8) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try TestJSON.decoder.decode(T.self, from: data)
    }

    /// The body as a JSON object (for checks on the exact set of members).
    func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HelperFailure(description: "body is not a JSON object: \(text)")
        }
        return object
    }
}

// MARK: - Requests

extension TestClientProtocol {
    /// Sends one request. `json` is sent verbatim as `application/json` unless `contentType` says
    /// otherwise; `tenant` becomes `X-Tenant-ID`, `bearer` the `Authorization` header.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, tenant: String? = nil, bearer: String? = nil,
        json: String? = nil, contentType: String? = "application/json", headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let tenant { headers[.xTenantID] = tenant }
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        if json != nil, let contentType { headers[.contentType] = contentType }
        return try await execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func register(_ account: Credentials, firstName: String = "Ana", lastName: String = "García") async throws
        -> TestResponse
    {
        try await send(
            .post, "/v1/auth/register", tenant: account.tenant,
            json: TestJSON.body([
                "email": account.email, "password": account.password, "first_name": firstName, "last_name": lastName,
            ]))
    }

    func login(email: String, password: String, tenant: String) async throws -> TestResponse {
        try await send(
            .post, "/v1/auth/login", tenant: tenant, json: TestJSON.body(["email": email, "password": password]))
    }

    func login(_ account: Credentials) async throws -> TestResponse {
        try await login(email: account.email, password: account.password, tenant: account.tenant)
    }

    /// Logs in and returns the pair; throws unless the server answered 200.
    func signIn(_ account: Credentials) async throws -> TokenPair {
        let response = try await login(account)
        guard response.status == .ok else {
            throw HelperFailure(description: "login of \(account.email) answered \(response.status): \(response.text)")
        }
        return try response.decode(TokenPair.self)
    }

    func refresh(_ refreshToken: String, tenant: String) async throws -> TestResponse {
        try await send(
            .post, "/v1/auth/refresh", tenant: tenant, json: TestJSON.body(["refresh_token": refreshToken]))
    }

    func me(_ accessToken: String, tenant: String? = nil) async throws -> TestResponse {
        try await send(.get, "/v1/auth/me", tenant: tenant, bearer: accessToken)
    }

    func mailbox(_ email: String, tenant: String) async throws -> [MailItem] {
        let query = email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? email
        let response = try await send(.get, "/__dev/mailbox?email=\(query)", tenant: tenant)
        guard response.status == .ok else {
            throw HelperFailure(description: "mailbox answered \(response.status): \(response.text)")
        }
        return try response.decode(Mailbox.self).items
    }

    /// The token of the newest mail of `kind` to `email`.
    func mailedToken(_ kind: String, to email: String, tenant: String) async throws -> String {
        guard let mail = try await mailbox(email, tenant: tenant).first(where: { $0.kind == kind }) else {
            throw HelperFailure(description: "no \(kind) mail to \(email) in tenant \(tenant)")
        }
        return mail.token
    }

    func verifyEmail(token: String, tenant: String) async throws -> TestResponse {
        let query = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
        return try await send(.post, "/v1/auth/verify-email?token=\(query)", tenant: tenant)
    }

    /// Registers `account` and verifies it through the dev mailbox; returns the verified user.
    @discardableResult
    func registerVerified(_ account: Credentials) async throws -> UserBody {
        let registered = try await register(account)
        guard registered.status == .accepted else {
            throw HelperFailure(description: "register answered \(registered.status): \(registered.text)")
        }
        let token = try await mailedToken("verify_email", to: account.email, tenant: account.tenant)
        let verified = try await verifyEmail(token: token, tenant: account.tenant)
        guard verified.status == .ok else {
            throw HelperFailure(description: "verify-email answered \(verified.status): \(verified.text)")
        }
        return try verified.decode(UserBody.self)
    }

    func forgotPassword(_ email: String, tenant: String) async throws -> TestResponse {
        try await send(.post, "/v1/auth/forgot-password", tenant: tenant, json: TestJSON.body(["email": email]))
    }

    func resetPassword(token: String, password: String, tenant: String) async throws -> TestResponse {
        try await send(
            .post, "/v1/auth/reset-password", tenant: tenant,
            json: TestJSON.body(["token": token, "password": password]))
    }
}

// MARK: - Expectations

/// Expects an RFC 9457 problem with `status` and `code`, and returns it.
@discardableResult
func expectProblem(
    _ response: TestResponse, _ status: HTTPResponse.Status, _ code: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Problem {
    #expect(response.status == status, "body: \(response.text)", sourceLocation: sourceLocation)
    #expect(response.headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
    let problem = try response.decode(Problem.self)
    #expect(problem.code == code, "detail: \(problem.detail)", sourceLocation: sourceLocation)
    #expect(problem.status == status.code, sourceLocation: sourceLocation)
    #expect(problem.type == "urn:edugo:problem:\(code)", sourceLocation: sourceLocation)
    return problem
}

/// Expects the refusal of a bearer token: 401 `unauthorized` with a `WWW-Authenticate: Bearer …`.
func expectTokenRefused(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try expectProblem(response, .unauthorized, "unauthorized", sourceLocation: sourceLocation)
    let challenge = response.headers[.wwwAuthenticate] ?? ""
    #expect(challenge.hasPrefix("Bearer"), "WWW-Authenticate: \(challenge)", sourceLocation: sourceLocation)
    #expect(challenge.contains(#"error="invalid_token""#), sourceLocation: sourceLocation)
}

// MARK: - Access to the shared services

/// Builds the dependencies for `configuration` and drives a router over them in-process, so a
/// test can look at the services (rate limiter, registry) the requests went through.
@discardableResult
func withServer<Value: Sendable>(
    exposing configuration: ServerConfiguration,
    _ test: @Sendable (any TestClientProtocol, Dependencies) async throws -> Value
) async throws -> Value {
    var logger = Logger(label: "edugo-tests")
    logger.logLevel = configuration.logLevel
    let deps = try await makeDependencies(configuration, logger: logger)
    let app = Application(router: buildRouter(deps), logger: logger)
    return try await app.test(.router) { client in try await test(client, deps) }
}
