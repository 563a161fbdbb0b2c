import Foundation
import Testing

/// 413 and 415 for every operation that takes a JSON body: bodies the generated client would
/// never send, altered on their way to the transport (see ``RequestTamperingMiddleware``).
@Suite(.timeLimit(.minutes(3))) struct RequestBodyRefusalContractTests {
    /// One call per operation with a request body. Path ids need not exist: the body is refused
    /// before anything is looked up. The client is signed in, so that 415 is not hidden behind 401.
    static let bodyCalls: [String: @Sendable (Client) async throws -> RefusedBody] = [
        "register": {
            .init(try await $0.register(headers: .init(xTenantID: "demo"), body: .json(RegistrationContractTests.newcomer())))
        },
        "login": {
            .init(try await $0.login(headers: .init(xTenantID: "demo"), body: .json(.init(email: "a@example.com", password: "x"))))
        },
        "refreshTokens": {
            .init(try await $0.refreshTokens(headers: .init(xTenantID: "demo"), body: .json(.init(refreshToken: "x"))))
        },
        "forgotPassword": {
            .init(try await $0.forgotPassword(headers: .init(xTenantID: "demo"), body: .json(.init(email: "a@example.com"))))
        },
        "resendVerification": {
            .init(try await $0.resendVerification(headers: .init(xTenantID: "demo"), body: .json(.init(email: "a@example.com"))))
        },
        "resetPassword": {
            .init(try await $0.resetPassword(
                headers: .init(xTenantID: "demo"), body: .json(.init(token: "x", password: "Long-Enough-1"))))
        },
        "createUser": { .init(try await $0.createUser(body: .json(UserCreationContractTests.newUser()))) },
        "updateMyProfile": { .init(try await $0.updateMyProfile(body: .json(.init(firstName: "A", version: 1)))) },
        "updateUser": {
            .init(try await $0.updateUser(path: .init(id: "x"), body: .json(.init(firstName: "A", version: 1))))
        },
        "createCourse": { .init(try await $0.createCourse(body: .json(.init(title: "T", category: .arts)))) },
        "updateCourse": {
            .init(try await $0.updateCourse(path: .init(id: "x"), body: .json(.init(title: "T", version: 1))))
        },
        "createLesson": { .init(try await $0.createLesson(path: .init(id: "x"), body: .json(.init(title: "T")))) },
        "updateLesson": {
            .init(try await $0.updateLesson(path: .init(id: "x", lessonId: "y"), body: .json(.init(title: "T", version: 1))))
        },
        "putProgress": { .init(try await $0.putProgress(path: .init(id: "x"), body: .json(.init(lessonId: "y")))) },
        "devCreateFault": {
            .init(try await $0.devCreateFault(headers: .init(xTenantID: "demo"), body: .json(.init(path: "/x", action: .status))))
        },
        "devAdvanceClock": { .init(try await $0.devAdvanceClock(body: .json(.init(advanceSeconds: 1)))) },
        "devCreateTenant": { .init(try await $0.devCreateTenant(body: .json(.init(name: "T")))) },
        "devRestoreSnapshot": {
            .init(try await $0.devRestoreSnapshot(path: .init(id: "demo"), body: .json(.init(snapshotId: "x"))))
        },
    ]

    @Test("every operation with a JSON body answers 413 payload_too_large to a body over 1 MiB")
    func refusesOversizedBodies() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let oversized = api.client(token: admin.tokens.accessToken, tampering: .jsonBody(bytes: (1 << 20) + 1))
            for (operationID, call) in Self.bodyCalls.sorted(by: { $0.key < $1.key }) {
                let problem = try await call(oversized).payloadTooLarge()

                #expect(problem.status == 413 && problem.code == "payload_too_large", "\(operationID)")
            }
        }
    }

    @Test("every operation with a JSON body answers 415 unsupported_media_type to a text/plain body")
    func refusesOtherMediaTypes() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let plainText = api.client(token: admin.tokens.accessToken, tampering: .contentType("text/plain"))
            for (operationID, call) in Self.bodyCalls.sorted(by: { $0.key < $1.key }) {
                let problem = try await call(plainText).unsupportedMediaType()

                #expect(problem.status == 415 && problem.code == "unsupported_media_type", "\(operationID)")
            }
        }
    }

    @Test("the body calls cover every operation of the spec that declares a JSON requestBody")
    func coversEveryOperationWithABody() throws {
        // uploadLessonMedia's body is a file, not JSON, with a limit of its own (LessonMediaTests).
        let withBody = try SpecDocument.load().operations.filter(\.hasRequestBody).map(\.operationID)
            .filter { $0 != "uploadLessonMedia" }

        #expect(Set(Self.bodyCalls.keys) == Set(withBody))
    }
}

/// The answer of any operation with a body, to be read as its generated 413 or 415 response.
struct RefusedBody: Sendable {
    let output: any RefusableOutput

    init(_ output: any RefusableOutput) {
        self.output = output
    }

    func payloadTooLarge() throws -> Components.Schemas.Problem {
        try output.contentTooLarge.body.applicationProblemJson
    }

    func unsupportedMediaType() throws -> Components.Schemas.Problem {
        try output.unsupportedMediaType.body.applicationProblemJson
    }
}

/// Generated outputs that document 413 and 415.
protocol RefusableOutput: Sendable {
    var contentTooLarge: Components.Responses.PayloadTooLarge { get throws }
    var unsupportedMediaType: Components.Responses.UnsupportedMediaType { get throws }
}

extension Operations.Register.Output: RefusableOutput {}
extension Operations.Login.Output: RefusableOutput {}
extension Operations.RefreshTokens.Output: RefusableOutput {}
extension Operations.ForgotPassword.Output: RefusableOutput {}
extension Operations.ResetPassword.Output: RefusableOutput {}
extension Operations.CreateUser.Output: RefusableOutput {}
extension Operations.UpdateMyProfile.Output: RefusableOutput {}
extension Operations.UpdateUser.Output: RefusableOutput {}
extension Operations.CreateCourse.Output: RefusableOutput {}
extension Operations.UpdateCourse.Output: RefusableOutput {}
extension Operations.CreateLesson.Output: RefusableOutput {}
extension Operations.UpdateLesson.Output: RefusableOutput {}
extension Operations.PutProgress.Output: RefusableOutput {}
extension Operations.DevCreateFault.Output: RefusableOutput {}
extension Operations.DevAdvanceClock.Output: RefusableOutput {}
extension Operations.DevRestoreSnapshot.Output: RefusableOutput {}
extension Operations.DevCreateTenant.Output: RefusableOutput {}
extension Operations.ResendVerification.Output: RefusableOutput {}
