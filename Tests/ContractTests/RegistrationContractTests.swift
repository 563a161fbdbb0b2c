import Foundation
import Testing

/// `register`.
@Suite struct RegistrationContractTests {
    static func newcomer(_ email: String = uniqueEmail()) -> Components.Schemas.RegisterRequest {
        .init(email: email, password: "Correct-Horse-9", firstName: "Ana", lastName: "García")
    }

    @Test("register answers 201 with an unverified student and its Location")
    func registersAnUnverifiedStudent() async throws {
        try await ContractHarness.with { api in
            let email = uniqueEmail()

            let created = try await api.anonymous.register(
                headers: .init(xTenantID: "demo"), body: .json(Self.newcomer(email))
            ).created

            let user = try created.body.json
            #expect(user.email == email)
            #expect(user.role == .student)
            #expect(user.emailVerified == false)
            #expect(user.version == 1)
            #expect(created.headers.location == "/v1/users/\(user.id)")
            #expect(created.headers.cacheControl == .noStore)
        }
    }

    @Test("register with an email already in the tenant answers 409 email_taken")
    func refusesATakenEmail() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.register(
                headers: .init(xTenantID: "demo"), body: .json(Self.newcomer(TestAccount.demoStudent.email)))

            expectProblem(try output.conflict.body.applicationProblemJson, status: 409, code: "email_taken")
        }
    }

    @Test("register with a short password and a malformed email answers 400 validation_failed naming both")
    func refusesInvalidFields() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.register(
                headers: .init(xTenantID: "demo"),
                body: .json(.init(email: "not-an-email", password: "short", firstName: "Ana", lastName: "García")))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields.isSuperset(of: ["email", "password"]))
        }
    }

    @Test("register in a tenant that does not exist answers 404 tenant_not_found")
    func refusesAnUnknownTenant() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.register(
                headers: .init(xTenantID: "no-such-tenant"), body: .json(Self.newcomer()))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "tenant_not_found")
        }
    }

    @Test("register with a malformed X-Tenant-ID answers 400 validation_failed for the header")
    func refusesAMalformedTenantHeader() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.register(
                headers: .init(xTenantID: "Not A Tenant!"), body: .json(Self.newcomer()))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["X-Tenant-ID"])
        }
    }
}
