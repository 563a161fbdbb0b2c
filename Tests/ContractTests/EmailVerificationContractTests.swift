import Foundation
import Testing

/// `verifyEmail`, with the token from the dev mailbox.
@Suite(.timeLimit(.minutes(3))) struct EmailVerificationContractTests {
    @Test("verifyEmail with the mailed token answers 200 with the user now verified")
    func verifiesWithTheMailedToken() async throws {
        try await ContractHarness.with { api in
            let email = uniqueEmail()
            _ = try await api.anonymous.register(
                headers: .init(xTenantID: "demo"), body: .json(RegistrationContractTests.newcomer(email))
            ).accepted.body.json
            let mail = try #require(
                try await api.anonymous.devGetMailbox(query: .init(email: email), headers: .init(xTenantID: "demo"))
                    .ok.body.json.items.first { $0.kind == .verifyEmail })

            let ok = try await api.anonymous.verifyEmail(query: .init(token: mail.token), headers: .init(xTenantID: "demo")).ok

            let user = try ok.body.json
            #expect(user.email == email)
            #expect(user.emailVerified)
            #expect(user.version == 2)
            #expect(ok.headers.cacheControl == .noStore)
        }
    }

    @Test("resendVerification answers 202 alike for a pending, an unknown and a verified email; only the pending one gets a mail")
    func resendsOnlyToPendingAccounts() async throws {
        try await ContractHarness.with { api in
            let email = uniqueEmail()
            _ = try await api.anonymous.register(
                headers: .init(xTenantID: "demo"), body: .json(RegistrationContractTests.newcomer(email))
            ).accepted
            var answers: [Components.Schemas.ForgotPasswordAccepted] = []
            for address in [email, uniqueEmail(), TestAccount.demoStudent.email] {
                let accepted = try await api.anonymous.resendVerification(
                    headers: .init(xTenantID: "demo"), body: .json(.init(email: address))
                ).accepted
                #expect(accepted.headers.cacheControl == .noStore)
                answers.append(try accepted.body.json)
            }

            #expect(Set(answers.map(\.status)) == [.accepted])
            let mails = try await api.anonymous.devGetMailbox(query: .init(email: email), headers: .init(xTenantID: "demo"))
                .ok.body.json.items
            #expect(mails.filter { $0.kind == .verifyEmail }.count == 2)
        }
    }

    @Test("verifyEmail with an unknown token answers 400 invalid_token")
    func refusesAnUnknownToken() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.verifyEmail(
                query: .init(token: "not-a-token"), headers: .init(xTenantID: "demo"))

            expectProblem(try output.badRequest.body.applicationProblemJson, status: 400, code: "invalid_token")
        }
    }

    @Test("verifyEmail in a tenant that does not exist answers 404 tenant_not_found")
    func refusesAnUnknownTenant() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.verifyEmail(
                query: .init(token: "whatever"), headers: .init(xTenantID: "no-such-tenant"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "tenant_not_found")
        }
    }
}
