import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

@Suite(.timeLimit(.minutes(3))) struct DevEndpointsTests {
    struct CreatedTenant: Decodable {
        struct Account: Decodable {
            var email: String
            var password: String
            var role: String
        }

        var tenantId: String
        var accounts: [Account]
    }

    @Test("POST /__dev/tenants answers 201 with a new tenant and one account per role")
    func createTenant() async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/__dev/tenants")

            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            HTTPHygieneTests.expectSecurityHeaders(response)
            let created = try response.decode(CreatedTenant.self)
            #expect(TenantID(created.tenantId) != nil)
            #expect(!["demo", "acme"].contains(created.tenantId))
            #expect(created.accounts.map(\.role) == ["admin", "teacher", "student"])
            #expect(Set(try response.jsonObject().keys) == ["tenant_id", "accounts"])
        }
    }

    @Test("every account of a created tenant logs in against that tenant, and only there")
    func createdAccountsLogIn() async throws {
        try await withServer { client in
            let created = try await client.send(.post, "/__dev/tenants").decode(CreatedTenant.self)

            for account in created.accounts {
                let pair = try await client.signIn(
                    Credentials(email: account.email, password: account.password, tenant: created.tenantId))
                #expect(pair.user.role == account.role)
                let claims = try CompactJWT(pair.accessToken).payload
                #expect(claims["tid"] as? String == created.tenantId)
                #expect(try await client.me(pair.accessToken).status == .ok)
                try expectProblem(
                    try await client.login(email: account.email, password: account.password, tenant: "demo"),
                    .unauthorized, "invalid_credentials")
            }
        }
    }

    @Test("each POST /__dev/tenants creates a distinct tenant")
    func tenantsAreDistinct() async throws {
        try await withServer { client in
            let first = try await client.send(.post, "/__dev/tenants").decode(CreatedTenant.self)
            let second = try await client.send(.post, "/__dev/tenants").decode(CreatedTenant.self)

            #expect(first.tenantId != second.tenantId)
        }
    }

    @Test("a created tenant accepts registrations and delivers its mail")
    func createdTenantIsUsable() async throws {
        try await withServer { client in
            let created = try await client.send(.post, "/__dev/tenants").decode(CreatedTenant.self)
            let account = Credentials.newcomer(tenant: created.tenantId)

            try await client.registerVerified(account)

            #expect(try await client.login(account).status == .ok)
        }
    }

    @Test("the mailbox lists a tenant's mails newest first with every documented member")
    func mailboxListsNewestFirst() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let account = Credentials.newcomer()
            _ = try await client.register(account)
            clock.advance(by: 60)
            _ = try await client.forgotPassword(account.email, tenant: "demo")

            let response = try await client.send(.get, "/__dev/mailbox?email=\(account.email)", tenant: "demo")

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let items = try response.decode(Mailbox.self).items
            #expect(items.map(\.kind) == ["reset_password", "verify_email"])
            #expect(items.first?.createdAt == "2026-11-18T11:07:40Z")
            let members = try #require((try response.jsonObject()["items"] as? [[String: Any]])?.first)
            #expect(Set(members.keys) == ["id", "to", "kind", "subject", "body", "token", "created_at"])
        }
    }

    @Test("the mailbox without X-Tenant-ID answers 400 validation_failed")
    func mailboxNeedsTenant() async throws {
        try await withServer { client in
            try expectProblem(try await client.send(.get, "/__dev/mailbox"), .badRequest, "validation_failed")
        }
    }

    @Test("with dev mode off, every /__dev route answers 404 not_found", arguments: [
        (HTTPRequest.Method.get, "/__dev/mailbox?email=admin@demo.edugo.dev"), (.post, "/__dev/tenants"),
        (.get, "/__dev/faults"), (.post, "/__dev/faults"), (.delete, "/__dev/faults"), (.delete, "/__dev/faults/f-1"),
        (.get, "/__dev/clock"), (.post, "/__dev/clock"), (.delete, "/__dev/clock"),
        (.get, "/__dev/tenants"), (.get, "/__dev/tenants/demo/users"), (.get, "/__dev/requests"), (.get, "/__dev/server"),
        (.post, "/__dev/tenants/demo/users/any-user/token"),
        (.get, "/__dev/tenants/demo/changes"), (.get, "/__dev/tenants/demo/devices"), (.get, "/__dev/tenants/demo/explain?user=a&entity=course&id=b"),
    ])
    func devRoutesHiddenOutsideDevMode(method: HTTPRequest.Method, uri: String) async throws {
        var configuration = ServerConfiguration.testing()
        configuration.devMode = false
        configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
        try await withServer(configuration) { client in
            let response = try await client.send(method, uri, tenant: "demo")

            try expectProblem(response, .notFound, "not_found")
            #expect(response.headers[.allow] == nil)
        }
    }

    @Test("with dev mode off, registration still works but no mail is exposed")
    func registrationWithoutDevMode() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.devMode = false
        configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
        try await withServer(configuration) { client in
            let response = try await client.register(.newcomer())

            #expect(response.status == .accepted)
        }
    }
}
