import EduGoServer
import Foundation
import OpenAPIRuntime

/// A live server for one test and generated clients pointed at it.
///
/// Every client records the operations it calls in the harness's ``OperationRecorder`` and sends
/// entity tags unencoded (see ``EntityTagHeaderMiddleware``).
struct ContractHarness: Sendable {
    let baseURL: URL
    let recorder: OperationRecorder

    /// Runs `body` against a fresh server built from `configuration`.
    static func with<Value: Sendable>(
        _ configuration: ServerConfiguration = LiveContractServer.configuration(),
        _ body: (ContractHarness) async throws -> Value
    ) async throws -> Value {
        try await LiveContractServer.with(configuration) { baseURL in
            try await body(ContractHarness(baseURL: baseURL, recorder: OperationRecorder()))
        }
    }

    /// A generated client; with a `token` it authenticates as that token's user, with a
    /// `tampering` it alters each request just before the transport sends it.
    func client(token: String? = nil, tampering: RequestTamperingMiddleware.Change? = nil) -> Client {
        var middlewares: [any ClientMiddleware] = [RecordingMiddleware(recorder: recorder), EntityTagHeaderMiddleware()]
        if let token { middlewares.append(BearerTokenMiddleware(token: token)) }
        if let tampering { middlewares.append(RequestTamperingMiddleware(change: tampering)) }
        return Client(serverURL: baseURL, transport: URLSessionClientTransport(), middlewares: middlewares)
    }

    /// A client without credentials.
    var anonymous: Client { client() }

    /// Signs `account` in through the generated `login` operation.
    func signIn(_ account: TestAccount) async throws -> SignedInClient {
        let output = try await anonymous.login(
            headers: .init(xTenantID: account.tenant),
            body: .json(.init(email: account.email, password: account.password)))
        let tokens = try output.ok.body.json
        return SignedInClient(client: client(token: tokens.accessToken), tokens: tokens, tenant: account.tenant)
    }

    /// A fresh seeded tenant from `POST /__dev/tenants`.
    func freshTenant() async throws -> Components.Schemas.DevTenant {
        try await anonymous.devCreateTenant().created.body.json
    }
}

/// A generated client signed in as one user.
struct SignedInClient: Sendable {
    let client: Client
    let tokens: Components.Schemas.TokenPair
    let tenant: String

    var user: Components.Schemas.User { tokens.user }
}

/// Who signs in where: the seeded demo logins.
struct TestAccount: Sendable {
    var tenant: String
    var email: String
    var password: String

    static let demoAdmin = TestAccount(tenant: "demo", email: "admin@demo.edugo.dev", password: "Demo-Admin-2026")
    static let demoTeacher = TestAccount(tenant: "demo", email: "teacher1@demo.edugo.dev", password: "Demo-Teacher-2026")
    static let demoOtherTeacher = TestAccount(tenant: "demo", email: "teacher2@demo.edugo.dev", password: "Demo-Teacher-2026")
    static let demoStudent = TestAccount(tenant: "demo", email: "student1@demo.edugo.dev", password: "Demo-Student-2026")
    static let demoOtherStudent = TestAccount(tenant: "demo", email: "student2@demo.edugo.dev", password: "Demo-Student-2026")
    static let acmeAdmin = TestAccount(tenant: "acme", email: "admin@acme.example", password: "Demo-Admin-2026")
}
