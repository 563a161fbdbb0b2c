import Foundation
import Testing

/// `register`.
@Suite(.timeLimit(.minutes(3))) struct RegistrationContractTests {
    static func newcomer(_ email: String = uniqueEmail()) -> Components.Schemas.RegisterRequest {
        .init(email: email, password: "Correct-Horse-9", firstName: "Ana", lastName: "García")
    }

    @Test("register answers 202 accepted with no Location, and the verification mail arrives")
    func acceptsARegistration() async throws {
        try await ContractHarness.with { api in
            let email = uniqueEmail()

            let accepted = try await api.anonymous.register(
                headers: .init(xTenantID: "demo"), body: .json(Self.newcomer(email))
            ).accepted

            #expect(try accepted.body.json.status == .accepted)
            #expect(accepted.headers.cacheControl == .noStore)
            let mails = try await api.anonymous.devGetMailbox(query: .init(email: email), headers: .init(xTenantID: "demo"))
                .ok.body.json.items
            #expect(mails.first?.kind == .verifyEmail)
        }
    }

    @Test("register with an email already in the tenant answers the same 202, and mails its holder")
    func doesNotRevealATakenEmail() async throws {
        try await ContractHarness.with { api in
            let taken = try await api.anonymous.register(
                headers: .init(xTenantID: "demo"), body: .json(Self.newcomer(TestAccount.demoStudent.email))
            ).accepted
            let fresh = try await api.anonymous.register(
                headers: .init(xTenantID: "demo"), body: .json(Self.newcomer(uniqueEmail()))
            ).accepted

            #expect(try taken.body.json == fresh.body.json)
            let mails = try await api.anonymous.devGetMailbox(
                query: .init(email: TestAccount.demoStudent.email), headers: .init(xTenantID: "demo")
            ).ok.body.json.items
            #expect(mails.first?.kind == .accountExists)
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
