import Foundation
import Testing

/// `forgotPassword` and `resetPassword`, with the token from the dev mailbox.
@Suite(.timeLimit(.minutes(3))) struct PasswordResetContractTests {
    @Test("forgotPassword answers 202 accepted alike for a known and an unknown email")
    func acceptsKnownAndUnknownEmails() async throws {
        try await ContractHarness.with { api in
            let known = try await api.anonymous.forgotPassword(
                headers: .init(xTenantID: "demo"), body: .json(.init(email: TestAccount.demoStudent.email))
            ).accepted
            let unknown = try await api.anonymous.forgotPassword(
                headers: .init(xTenantID: "demo"), body: .json(.init(email: uniqueEmail()))
            ).accepted

            #expect(try known.body.json.status == .accepted)
            #expect(try unknown.body.json == known.body.json)
            #expect(known.headers.cacheControl == .noStore)
        }
    }

    @Test("forgotPassword with a malformed email answers 400 validation_failed")
    func refusesAMalformedEmail() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.forgotPassword(
                headers: .init(xTenantID: "demo"), body: .json(.init(email: "not-an-email")))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["email"])
        }
    }

    @Test("forgotPassword in a tenant that does not exist answers 404 tenant_not_found")
    func refusesAnUnknownTenant() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.forgotPassword(
                headers: .init(xTenantID: "no-such-tenant"), body: .json(.init(email: TestAccount.demoStudent.email)))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "tenant_not_found")
        }
    }

    @Test("resetPassword with the mailed token answers 204 and the new password signs in")
    func resetsWithTheMailedToken() async throws {
        try await ContractHarness.with { api in
            let account = TestAccount.demoOtherStudent
            _ = try await api.anonymous.forgotPassword(
                headers: .init(xTenantID: "demo"), body: .json(.init(email: account.email))
            ).accepted
            let mail = try #require(
                try await api.anonymous.devGetMailbox(query: .init(email: account.email), headers: .init(xTenantID: "demo"))
                    .ok.body.json.items.first { $0.kind == .resetPassword })

            let noContent = try await api.anonymous.resetPassword(
                headers: .init(xTenantID: "demo"), body: .json(.init(token: mail.token, password: "Brand-New-Secret-7"))
            ).noContent

            #expect(noContent.headers.cacheControl == .noStore)
            var renewed = account
            renewed.password = "Brand-New-Secret-7"
            #expect(try await api.signIn(renewed).user.email == account.email)
        }
    }

    @Test("resetPassword with an unknown token answers 400 invalid_token")
    func refusesAnUnknownToken() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.resetPassword(
                headers: .init(xTenantID: "demo"), body: .json(.init(token: "not-a-token", password: "Brand-New-Secret-7")))

            expectProblem(try output.badRequest.body.applicationProblemJson, status: 400, code: "invalid_token")
        }
    }

    @Test("resetPassword with a too short password answers 400 validation_failed")
    func refusesAShortPassword() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.resetPassword(
                headers: .init(xTenantID: "demo"), body: .json(.init(token: "not-a-token", password: "short")))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["password"])
        }
    }

    @Test("resetPassword in a tenant that does not exist answers 404 tenant_not_found")
    func refusesAnUnknownTenant404() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.resetPassword(
                headers: .init(xTenantID: "no-such-tenant"), body: .json(.init(token: "x", password: "Brand-New-Secret-7")))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "tenant_not_found")
        }
    }
}
