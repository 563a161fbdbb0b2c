import Foundation
import Testing

/// `createUser`.
@Suite(.timeLimit(.minutes(3))) struct UserCreationContractTests {
    static func newUser(_ email: String = uniqueEmail(), role: Components.Schemas.Role = .teacher)
        -> Components.Schemas.CreateUserRequest
    {
        .init(email: email, password: "Correct-Horse-9", firstName: "Grace", lastName: "Hopper", role: role)
    }

    @Test("createUser by an admin answers 201 with a verified user, its Location and ETag \"1\"")
    func createsAVerifiedUser() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let request = Self.newUser()

            let created = try await admin.client.createUser(body: .json(request)).created

            let user = try created.body.json
            #expect(user.email == request.email)
            #expect(user.role == .teacher)
            #expect(user.emailVerified)
            #expect(user.version == 1)
            #expect(created.headers.location == "/v1/users/\(user.id)")
            #expect(created.headers.eTag == "\"1\"")
            #expect(created.headers.idempotentReplayed == nil)
            #expect(try await api.signIn(TestAccount(tenant: "demo", email: request.email, password: request.password)).user == user)
        }
    }

    @Test("createUser with an email already in the tenant answers 409 email_taken")
    func refusesATakenEmail() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let output = try await admin.client.createUser(body: .json(Self.newUser(TestAccount.demoTeacher.email)))

            expectProblem(try output.conflict.body.applicationProblemJson, status: 409, code: "email_taken")
        }
    }

    @Test("createUser with a malformed email answers 400 validation_failed for email")
    func refusesAMalformedEmail() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let output = try await admin.client.createUser(body: .json(Self.newUser("not-an-email")))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["email"])
        }
    }

    @Test("createUser by a teacher answers 403 forbidden")
    func refusesTeachers() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)

            let output = try await teacher.client.createUser(body: .json(Self.newUser()))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }
}
