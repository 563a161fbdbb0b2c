import EduGoServer
import Foundation
import Testing

/// The dev console's operations: `devConsole`, `devConsoleAsset`, `devListTenants`,
/// `devListTenantUsers`, `devTailRequests`, `devGetServer`.
@Suite(.timeLimit(.minutes(3))) struct DevConsoleContractTests {
    @Test("devConsole answers the HTML page; devConsoleAsset each listed file with its media type")
    func pageAndFiles() async throws {
        try await ContractHarness.with { api in
            let page = try await api.anonymous.devConsole().ok
            let html = try await String(collecting: page.body.html, upTo: 1 << 20)
            #expect(html.contains("EduGo dev console"))
            #expect(page.headers.cacheControl == .noCache)

            for name in Operations.DevConsoleAsset.Input.Path.NamePayload.allCases {
                let output = try await api.anonymous.devConsoleAsset(path: .init(name: name)).ok
                switch output.body {
                case .textCss: #expect(name.rawValue.hasSuffix(".css"))
                case .textJavascript: #expect(name.rawValue.hasSuffix(".js"))
                case .imageSvgXml: #expect(name.rawValue.hasSuffix(".svg"))
                }
            }
        }
    }

    @Test("devListTenants lists a fresh tenant first with its three accounts; devListTenantUsers lists them")
    func tenants() async throws {
        try await ContractHarness.with { api in
            let tenant = try await api.freshTenant()

            let page = try await api.anonymous.devListTenants(query: .init(limit: 100)).ok.body.json
            let users = try await api.anonymous.devListTenantUsers(path: .init(id: tenant.tenantId)).ok.body.json

            let listed = try #require(page.items.first { $0.id == tenant.tenantId })
            #expect(listed.userCount == 3)
            #expect(Set(users.items.map(\.email)) == Set(tenant.accounts.map(\.email)))
            let unknown = try await api.anonymous.devListTenantUsers(path: .init(id: "no-such-tenant"))
            expectProblem(try unknown.notFound.body.applicationProblemJson, status: 404, code: "tenant_not_found")
        }
    }

    @Test("devTailRequests shows the request a fault answered, marked with the rule; a bad status filter answers 400")
    func requestTail() async throws {
        try await ContractHarness.with { api in
            let tenant = try await api.freshTenant()
            let rule = try await api.anonymous.devCreateFault(
                headers: .init(xTenantID: tenant.tenantId),
                body: .json(.init(method: .get, path: "/v1/auth/me", action: .status, times: 1, status: 503))
            ).created.body.json
            guard case .serverError(503, _) = try await api.anonymous.getMe(headers: .init(xTenantID: tenant.tenantId)) else {
                Issue.record("expected the injected 503")
                return
            }

            let tail = try await api.anonymous.devTailRequests(query: .init(tenant: tenant.tenantId, status: "5xx")).ok.body.json

            let entry = try #require(tail.items.first)
            #expect(entry.route == "/v1/auth/me")
            #expect(entry.status == 503)
            #expect(entry.fault?.ruleId == rule.id)
            #expect(entry.fault?.action == .status)
            #expect(tail.latestSequence >= entry.sequence)
            let refused = try await api.anonymous.devTailRequests(query: .init(status: "9xx"))
            expectProblem(try refused.badRequest.body.applicationProblemJson, status: 400, code: "validation_failed")
        }
    }

    @Test("devListJournal shows the tenant's request with its path and the rule that answered it; devClearJournal empties it; a bad path glob answers 400")
    func journal() async throws {
        try await ContractHarness.with { api in
            let tenant = try await api.freshTenant()
            let tid = tenant.tenantId
            let rule = try await api.anonymous.devCreateFault(
                headers: .init(xTenantID: tid),
                body: .json(.init(method: .get, path: "/v1/auth/me", action: .status, times: 1, status: 503))
            ).created.body.json
            _ = try await api.anonymous.getMe(headers: .init(xTenantID: tid))

            let journal = try await api.anonymous.devListJournal(path: .init(id: tid), query: .init(path: "/v1/auth/*", status: "503"))
                .ok.body.json

            let entry = try #require(journal.items.first)
            #expect(journal.items.count == 1)
            #expect(entry.path == "/v1/auth/me")
            #expect(entry.route == "/v1/auth/me")
            #expect(entry.fault?.ruleId == rule.id)
            #expect(journal.recorded >= entry.sequence)
            #expect(journal.capacity == 1_000)
            _ = try await api.anonymous.devClearJournal(path: .init(id: tid)).noContent
            let emptied = try await api.anonymous.devListJournal(path: .init(id: tid)).ok.body.json
            #expect(emptied.items.isEmpty && emptied.recorded == 0)
            let refused = try await api.anonymous.devListJournal(path: .init(id: tid), query: .init(path: "v1/**"))
            expectProblem(try refused.badRequest.body.applicationProblemJson, status: 400, code: "validation_failed")
        }
    }

    @Test("devGetServer reports TLS off with a null pin and traffic over a 60-second window")
    func server() async throws {
        try await ContractHarness.with { api in
            let info = try await api.anonymous.devGetServer().ok.body.json

            #expect(info.version == "1.0.0")
            #expect(info.devMode)
            #expect(info.tls.enabled == false)
            #expect(info.tls.pin == nil)
            #expect(info.traffic.windowSeconds.rawValue == 60)
        }
    }
}
