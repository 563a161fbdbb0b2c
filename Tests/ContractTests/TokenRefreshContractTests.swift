import Foundation
import Testing

/// `refreshTokens`.
@Suite(.timeLimit(.minutes(3))) struct TokenRefreshContractTests {
    @Test("refreshTokens answers 200 with a rotated pair whose access token works")
    func rotatesThePair() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let ok = try await api.anonymous.refreshTokens(
                headers: .init(xTenantID: "demo"), body: .json(.init(refreshToken: student.tokens.refreshToken))
            ).ok

            let pair = try ok.body.json
            #expect(pair.refreshToken != student.tokens.refreshToken)
            #expect(pair.user.id == student.user.id)
            #expect(ok.headers.cacheControl == .noStore)
            let me = try await api.client(token: pair.accessToken).getMe().ok.body.json
            #expect(me.id == student.user.id)
        }
    }

    @Test("refreshTokens with an unknown refresh token answers 401 invalid_refresh_token")
    func refusesAnUnknownToken() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.refreshTokens(
                headers: .init(xTenantID: "demo"), body: .json(.init(refreshToken: "not-a-refresh-token")))

            expectProblem(try output.unauthorized.body.applicationProblemJson, status: 401, code: "invalid_refresh_token")
        }
    }

    @Test("refreshTokens in a tenant that does not exist answers 404 tenant_not_found")
    func refusesAnUnknownTenant() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.refreshTokens(
                headers: .init(xTenantID: "no-such-tenant"), body: .json(.init(refreshToken: "whatever")))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "tenant_not_found")
        }
    }

    @Test("refreshTokens with a malformed X-Tenant-ID answers 400 validation_failed")
    func refusesAMalformedTenantHeader() async throws {
        try await ContractHarness.with { api in
            let output = try await api.anonymous.refreshTokens(
                headers: .init(xTenantID: "UPPER"), body: .json(.init(refreshToken: "whatever")))

            expectProblem(try output.badRequest.body.applicationProblemJson, status: 400, code: "validation_failed")
        }
    }
}
