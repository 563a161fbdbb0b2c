import Foundation
import Testing

/// `login`.
@Suite(.timeLimit(.minutes(3))) struct LoginContractTests {
    @Test("login with the right password answers 200 with a Bearer token pair for 900 s")
    func answersATokenPair() async throws {
        try await ContractHarness.with { api in
            let account = TestAccount.demoTeacher

            let ok = try await api.anonymous.login(
                headers: .init(xTenantID: account.tenant),
                body: .json(.init(email: account.email, password: account.password))
            ).ok

            let pair = try ok.body.json
            #expect(pair.tokenType == .bearer)
            #expect(pair.expiresIn == 900)
            #expect(pair.accessToken.split(separator: ".").count == 3)
            #expect(!pair.refreshToken.isEmpty)
            #expect(pair.user.email == account.email)
            #expect(pair.user.role == .teacher)
            #expect(ok.headers.cacheControl == .noStore)
        }
    }

    @Test("login with a wrong password answers 401 invalid_credentials")
    func refusesAWrongPassword() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.login(
                headers: .init(xTenantID: "demo"),
                body: .json(.init(email: TestAccount.demoStudent.email, password: "Wrong-Password-1")))

            expectProblem(try output.unauthorized.body.applicationProblemJson, status: 401, code: "invalid_credentials")
        }
    }

    @Test("login before the email is verified answers 403 email_not_verified")
    func refusesAnUnverifiedAccount() async throws {
        try await ContractHarness.with { api in
            let newcomer = RegistrationContractTests.newcomer()
            _ = try await api.anonymous.register(headers: .init(xTenantID: "demo"), body: .json(newcomer)).accepted

            let output = try await api.anonymous.login(
                headers: .init(xTenantID: "demo"), body: .json(.init(email: newcomer.email, password: newcomer.password)))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "email_not_verified")
        }
    }

    @Test("login in a tenant that does not exist answers 404 tenant_not_found")
    func refusesAnUnknownTenant() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.login(
                headers: .init(xTenantID: "no-such-tenant"),
                body: .json(.init(email: TestAccount.demoStudent.email, password: TestAccount.demoStudent.password)))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "tenant_not_found")
        }
    }

    @Test("login with a malformed X-Tenant-ID answers 400 validation_failed")
    func refusesAMalformedTenantHeader() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.login(
                headers: .init(xTenantID: "-"),
                body: .json(.init(email: TestAccount.demoStudent.email, password: TestAccount.demoStudent.password)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["X-Tenant-ID"])
        }
    }
}
