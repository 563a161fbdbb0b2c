import Foundation
import Testing

/// `logout`.
@Suite(.timeLimit(.minutes(3))) struct LogoutContractTests {
    @Test("logout answers 204 and the access token is refused afterwards with an invalid_token challenge")
    func revokesTheSession() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let noContent = try await student.client.logout().noContent

            #expect(noContent.headers.cacheControl == .noStore)
            let refused = try await student.client.getMe().unauthorized
            expectProblem(try refused.body.applicationProblemJson, status: 401, code: "unauthorized")
            #expect(refused.headers.wwwAuthenticate == #"Bearer realm="edugo", error="invalid_token""#)
        }
    }

    @Test("logout revokes the session's refresh token too")
    func revokesTheRefreshToken() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)
            _ = try await student.client.logout().noContent

            let output = try await api.anonymous.refreshTokens(
                headers: .init(xTenantID: "demo"), body: .json(.init(refreshToken: student.tokens.refreshToken)))

            expectProblem(try output.unauthorized.body.applicationProblemJson, status: 401, code: "invalid_refresh_token")
        }
    }
}
