import EduGoServer
import Foundation
import Testing

/// `devCreateTenant` and `devGetMailbox`.
@Suite(.timeLimit(.minutes(3))) struct DevContractTests {
    @Test("devCreateTenant answers 201 with a fresh tenant and one verified account per role")
    func createsASeededTenant() async throws {
        try await ContractHarness.with { api in
            let created = try await api.anonymous.devCreateTenant().created

            let tenant = try created.body.json
            #expect(Set(tenant.accounts.map(\.role)) == [.admin, .teacher, .student])
            #expect(created.headers.cacheControl == .noStore)
            let admin = try #require(tenant.accounts.first { $0.role == .admin })
            let signedIn = try await api.signIn(TestAccount(tenant: tenant.tenantId, email: admin.email, password: admin.password))
            #expect(signedIn.user.role == .admin)
            #expect(signedIn.user.emailVerified)
        }
    }

    @Test("devGetMailbox answers 200 with the tenant's mails to the address, newest first")
    func listsMailsNewestFirst() async throws {
        try await ContractHarness.with { api in
            let tenant = try await api.freshTenant()
            let student = try #require(tenant.accounts.first { $0.role == .student })
            for _ in 0..<2 {
                _ = try await api.anonymous.forgotPassword(
                    headers: .init(xTenantID: tenant.tenantId), body: .json(.init(email: student.email))
                ).accepted
            }

            let ok = try await api.anonymous.devGetMailbox(
                query: .init(email: student.email), headers: .init(xTenantID: tenant.tenantId)
            ).ok

            let mails = try ok.body.json.items
            try #require(mails.count == 2)
            #expect(mails.allSatisfy { $0.to == student.email && $0.kind == .resetPassword && !$0.token.isEmpty })
            #expect(mails[0].createdAt >= mails[1].createdAt)
            #expect(ok.headers.cacheControl == .noStore)
        }
    }

    @Test("devGetMailbox of a tenant that does not exist answers 404 tenant_not_found")
    func refusesAnUnknownTenant() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.devGetMailbox(headers: .init(xTenantID: "no-such-tenant"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "tenant_not_found")
        }
    }

    @Test("devGetMailbox with a malformed X-Tenant-ID answers 400 validation_failed")
    func refusesAMalformedTenantHeader() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.devGetMailbox(headers: .init(xTenantID: "x"))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["X-Tenant-ID"])
        }
    }

    @Test("outside dev mode the dev operations answer 404 not_found")
    func absentOutsideDevMode() async throws {
        var configuration = LiveContractServer.configuration()
        configuration.devMode = false
        configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
        try await ContractHarness.with(configuration) { api in
            let tenants = try await api.anonymous.devCreateTenant()
            let mailbox = try await api.anonymous.devGetMailbox(headers: .init(xTenantID: "demo"))

            expectProblem(try tenants.notFound.body.applicationProblemJson, status: 404, code: "not_found")
            expectProblem(try mailbox.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
