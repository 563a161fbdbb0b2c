import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

@Suite(.timeLimit(.minutes(3))) struct TenancyTests {
    @Test("a demo token sent with X-Tenant-ID acme answers 403 tenant_mismatch")
    func disagreeingTenantHeaderIsRefused() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoAdmin)

            let response = try await client.me(pair.accessToken, tenant: "acme")

            try expectProblem(response, .forbidden, "tenant_mismatch")
        }
    }

    @Test("a token sent with its own tenant in X-Tenant-ID is accepted")
    func agreeingTenantHeaderIsAccepted() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoAdmin)

            #expect(try await client.me(pair.accessToken, tenant: "demo").status == .ok)
        }
    }

    @Test("a token sent with a malformed X-Tenant-ID answers 403 tenant_mismatch")
    func malformedTenantHeaderWithTokenIsRefused() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoAdmin)

            let response = try await client.me(pair.accessToken, tenant: "DEMO")

            try expectProblem(response, .forbidden, "tenant_mismatch")
        }
    }

    @Test("an acme account cannot log in at demo")
    func accountsDoNotCrossTenants() async throws {
        try await withServer { client in
            let acme = Credentials.acmeAdmin

            let response = try await client.login(email: acme.email, password: acme.password, tenant: "demo")

            try expectProblem(response, .unauthorized, "invalid_credentials")
        }
    }

    @Test("the token decides the tenant: /v1/auth/me without X-Tenant-ID answers the token's own user")
    func tokenCarriesTenant() async throws {
        try await withServer { client in
            let demo = try await client.signIn(.demoAdmin)
            let acme = try await client.signIn(.acmeAdmin)

            let demoMe = try await client.me(demo.accessToken).decode(UserBody.self)
            let acmeMe = try await client.me(acme.accessToken).decode(UserBody.self)

            #expect(demoMe == demo.user)
            #expect(demoMe.email == "admin@demo.edugo.dev")
            #expect(acmeMe == acme.user)
            #expect(acmeMe.email == "admin@acme.example")
            #expect(demoMe.id != acmeMe.id)
        }
    }

    @Test("the same email registers independently in two tenants")
    func emailsAreUniquePerTenant() async throws {
        try await withServer { client in
            let inDemo = Credentials.newcomer("ana@example.com", tenant: "demo")
            var inAcme = Credentials.newcomer("ana@example.com", tenant: "acme")
            inAcme.password = "Acme-Password-7"
            try await client.registerVerified(inDemo)
            try await client.registerVerified(inAcme)

            let demoPair = try await client.signIn(inDemo)
            let acmePair = try await client.signIn(inAcme)

            #expect(demoPair.user.id != acmePair.user.id)
            try expectProblem(
                try await client.login(email: inAcme.email, password: inAcme.password, tenant: "demo"),
                .unauthorized, "invalid_credentials")
        }
    }

    @Test("a tenant's dev mailbox shows none of another tenant's mails")
    func mailboxesAreIsolated() async throws {
        try await withServer { client in
            _ = try await client.register(.newcomer("ana@example.com", tenant: "demo"))

            #expect(try await client.mailbox("ana@example.com", tenant: "acme").isEmpty)
            #expect(try await client.mailbox("ana@example.com", tenant: "demo").count == 1)
        }
    }

    @Test("a genuinely signed token naming another tenant finds no session there and answers 401")
    func tokenForOtherTenantFindsNothing() async throws {
        let clock = TestClock()
        try await withServerSharingSigningKey(clock: clock) { client, signingKey in
            // Given a demo session, and a token the server's key signs for the same user and
            // session but with tid acme
            let pair = try await client.signIn(.demoAdmin)
            let sessionID = try #require(try CompactJWT(pair.accessToken).payload["sid"] as? String)
            let tokens = await TokenService(signingKey: signingKey, configuration: .testing(clock: clock))
            let crossTenant = try await tokens.issue(
                userID: pair.user.id, tenantID: try #require(TenantID("acme")), role: .admin, sessionID: sessionID)

            // When it is used
            let response = try await client.me(crossTenant)

            // Then acme's database knows neither the user nor the session
            try expectTokenRefused(response)
        }
    }

    @Test("a genuinely signed token for a tenant that does not exist answers 401")
    func tokenForUnknownTenantIsRefused() async throws {
        let clock = TestClock()
        try await withServerSharingSigningKey(clock: clock) { client, signingKey in
            let pair = try await client.signIn(.demoAdmin)
            let sessionID = try #require(try CompactJWT(pair.accessToken).payload["sid"] as? String)
            let tokens = await TokenService(signingKey: signingKey, configuration: .testing(clock: clock))
            let token = try await tokens.issue(
                userID: pair.user.id, tenantID: try #require(TenantID("globex")), role: .admin, sessionID: sessionID)

            try expectTokenRefused(try await client.me(token))
        }
    }
}
