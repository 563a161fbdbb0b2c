import EduGoServer
import Foundation
import Testing

/// 429 `rate_limited` with `Retry-After`, on a server with small limits.
@Suite(.timeLimit(.minutes(3))) struct RateLimitContractTests {
    /// Generous limits except the one a test tightens to `limit` per minute.
    static func configuration(
        loginPerAccount: Int = 1000, refreshPerAddress: Int = 1000, forgotPerAccount: Int = 1000
    ) -> ServerConfiguration {
        var configuration = LiveContractServer.configuration()
        let minute = Duration.seconds(60)
        configuration.rateLimits = RateLimits(
            loginPerAddress: .init(limit: 1000, window: minute),
            loginPerAccount: .init(limit: loginPerAccount, window: minute),
            refreshPerAddress: .init(limit: refreshPerAddress, window: minute),
            forgotPasswordPerAddress: .init(limit: 1000, window: minute),
            forgotPasswordPerAccount: .init(limit: forgotPerAccount, window: minute))
        return configuration
    }

    @Test("login after the account's failed-login limit answers 429 rate_limited with Retry-After")
    func throttlesFailedLogins() async throws {
        try await ContractHarness.with(Self.configuration(loginPerAccount: 2)) { api in
            let wrong = Components.Schemas.LoginRequest(email: TestAccount.demoStudent.email, password: "Wrong-Password-1")
            for _ in 0..<2 {
                _ = try await api.anonymous.login(headers: .init(xTenantID: "demo"), body: .json(wrong)).unauthorized
            }

            let refused = try await api.anonymous.login(headers: .init(xTenantID: "demo"), body: .json(wrong)).tooManyRequests

            expectProblem(try refused.body.applicationProblemJson, status: 429, code: "rate_limited")
            #expect((1...60).contains(refused.headers.retryAfter))
        }
    }

    @Test("refreshTokens beyond the per-address limit answers 429 rate_limited with Retry-After")
    func throttlesRefreshes() async throws {
        try await ContractHarness.with(Self.configuration(refreshPerAddress: 1)) { api in
            let student = try await api.signIn(.demoStudent)
            _ = try await api.anonymous.refreshTokens(
                headers: .init(xTenantID: "demo"), body: .json(.init(refreshToken: student.tokens.refreshToken))
            ).ok

            let refused = try await api.anonymous.refreshTokens(
                headers: .init(xTenantID: "demo"), body: .json(.init(refreshToken: student.tokens.refreshToken))
            ).tooManyRequests

            expectProblem(try refused.body.applicationProblemJson, status: 429, code: "rate_limited")
            #expect((1...60).contains(refused.headers.retryAfter))
        }
    }

    @Test("forgotPassword beyond the per-email limit answers 429 rate_limited with Retry-After")
    func throttlesResetMails() async throws {
        try await ContractHarness.with(Self.configuration(forgotPerAccount: 1)) { api in
            let request = Components.Schemas.ForgotPasswordRequest(email: TestAccount.demoStudent.email)
            _ = try await api.anonymous.forgotPassword(headers: .init(xTenantID: "demo"), body: .json(request)).accepted

            let refused = try await api.anonymous.forgotPassword(
                headers: .init(xTenantID: "demo"), body: .json(request)
            ).tooManyRequests

            expectProblem(try refused.body.applicationProblemJson, status: 429, code: "rate_limited")
            #expect((1...60).contains(refused.headers.retryAfter))
        }
    }
}
