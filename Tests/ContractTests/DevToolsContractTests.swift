import EduGoServer
import Foundation
import Testing

/// `devCreateFault`, `devListFaults`, `devDeleteFault(s)` and the clock operations.
@Suite(.timeLimit(.minutes(3))) struct DevToolsContractTests {
    @Test("devCreateFault answers 201 with the rule; the next matching request gets injected_fault with Retry-After")
    func statusFaultAnswersTheNextRequest() async throws {
        try await ContractHarness.with { api in
            let tenant = try await api.freshTenant()
            let student = try #require(tenant.accounts.first { $0.role == .student })
            let signedIn = try await api.signIn(TestAccount(tenant: tenant.tenantId, email: student.email, password: student.password))

            let created = try await api.anonymous.devCreateFault(
                headers: .init(xTenantID: tenant.tenantId),
                body: .json(.init(method: .get, path: "/v1/auth/me", action: .status, times: 1, status: 503, retryAfter: 2))
            ).created
            let rule = try created.body.json
            #expect(rule.action == .status)
            #expect(rule.fired == 0)
            #expect(rule.active)
            #expect(created.headers.cacheControl == .noStore)

            // The injected status is a declared answer of every operation outside /__dev (5XX, InjectedFault)
            let faulted = try await signedIn.client.getMe()
            guard case .serverError(let status, let answer) = faulted else {
                Issue.record("expected the injected 503, got \(faulted)")
                return
            }
            #expect(status == 503)
            #expect(answer.headers.retryAfter == 2)
            let problem = try answer.body.applicationProblemJson
            #expect(problem.code == "injected_fault")
            #expect(problem.title == "Service Unavailable")
            _ = try await signedIn.client.getMe().ok.body.json

            let listed = try await api.anonymous.devListFaults(headers: .init(xTenantID: tenant.tenantId)).ok.body.json
            #expect(listed.items.map(\.fired) == [1])
            #expect(listed.items.map(\.active) == [false])
        }
    }

    @Test("devCreateFault with a malformed glob answers 400 validation_failed")
    func refusesABadGlob() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.devCreateFault(
                headers: .init(xTenantID: "demo"), body: .json(.init(path: "/v1/**/x", action: .dropResponse)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
        }
    }

    @Test("devDeleteFault of an unknown rule answers 404 not_found; devDeleteFaults answers 204")
    func deletes() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.devDeleteFault(path: .init(id: "f-999"), headers: .init(xTenantID: "demo"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
            _ = try await api.anonymous.devDeleteFaults(headers: .init(xTenantID: "demo")).noContent
        }
    }

    @Test("devAdvanceClock moves the clock, devGetClock shows it, devResetClock returns to real time")
    func clock() async throws {
        try await ContractHarness.with { api in
            let moved = try await api.anonymous.devAdvanceClock(body: .json(.init(advanceSeconds: 901))).ok.body.json
            #expect(moved.offsetSeconds == 901)
            #expect(try await api.anonymous.devGetClock().ok.body.json.offsetSeconds == 901)
            #expect(try await api.anonymous.devResetClock().ok.body.json.offsetSeconds == 0)

            let refused = try await api.anonymous.devAdvanceClock(body: .json(.init(advanceSeconds: -5)))
            expectProblem(try refused.badRequest.body.applicationProblemJson, status: 400, code: "validation_failed")
        }
    }

    @Test("getMetrics answers 200 Prometheus text counting the requests made")
    func metrics() async throws {
        try await ContractHarness.with { api in
            _ = try await api.anonymous.getHealth().ok

            let ok = try await api.anonymous.getMetrics().ok
            let text = try await String(collecting: ok.body.plainText, upTo: 4 << 20)

            #expect(text.contains(#"edugo_http_requests_total{method="GET",route="/health",status="200"} 1"#))
            #expect(ok.headers.cacheControl == .noStore)
        }
    }
}
