import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

@Suite(.timeLimit(.minutes(3))) struct RateLimitTests {
    /// Generous limits everywhere except the rules a test tightens.
    static func limits(
        loginPerAddress: Int = 100, loginPerAccount: Int = 100, refreshPerAddress: Int = 100,
        forgotPerAddress: Int = 100, forgotPerAccount: Int = 100, window: Duration = .seconds(60)
    ) -> RateLimits {
        RateLimits(
            loginPerAddress: .init(limit: loginPerAddress, window: window),
            loginPerAccount: .init(limit: loginPerAccount, window: window),
            refreshPerAddress: .init(limit: refreshPerAddress, window: window),
            forgotPasswordPerAddress: .init(limit: forgotPerAddress, window: window),
            forgotPasswordPerAccount: .init(limit: forgotPerAccount, window: window))
    }

    static func configuration(_ clock: TestClock, _ limits: RateLimits) -> ServerConfiguration {
        var configuration = ServerConfiguration.testing(clock: clock)
        configuration.rateLimits = limits
        return configuration
    }

    static let student = Credentials.demoStudent

    static func failLogin(_ client: some TestClientProtocol, email: String = student.email) async throws -> TestResponse {
        try await client.login(email: email, password: "Wrong-Password-1", tenant: "demo")
    }

    @Test("the fourth failed login for an account answers 429 rate_limited with Retry-After")
    func accountLockAfterFailures() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(loginPerAccount: 3))) { client in
            // Given three failed logins
            for _ in 0..<3 {
                try expectProblem(try await Self.failLogin(client), .unauthorized, "invalid_credentials")
            }

            // When a fourth is attempted
            let response = try await Self.failLogin(client)

            // Then it is throttled, with the remaining window in Retry-After
            try expectProblem(response, .tooManyRequests, "rate_limited")
            #expect(response.headers[.retryAfter] == "60")
        }
    }

    @Test("40 concurrent wrong logins for one account: at most the limit answer 401, the rest 429 with Retry-After")
    func concurrentLoginsCannotBypassTheLimits() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, .standard)) { client in
            // Given the standard limits (5 per account, 20 per address)
            // When 40 wrong-password logins for one account arrive at once
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<40 { group.addTask { try await Self.failLogin(client) } }
                var all: [TestResponse] = []
                for try await response in group { all.append(response) }
                return all
            }

            // Then only the account's limit were let through to the password check
            let refused = responses.filter { $0.status == .unauthorized }
            let throttled = responses.filter { $0.status == .tooManyRequests }
            #expect(refused.count == 5)
            #expect(throttled.count == 35)
            #expect(throttled.allSatisfy { $0.headers[.retryAfter] != nil })
            // And the right password is refused too while the lock holds
            try expectProblem(try await client.login(Self.student), .tooManyRequests, "rate_limited")
        }
    }

    @Test("concurrent wrong logins across accounts stop at the address limit")
    func concurrentLoginsAcrossAccountsStopAtAddressLimit() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, .standard)) { client in
            // When 40 wrong logins for 40 different emails arrive at once from one address
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<40 {
                    group.addTask { try await Self.failLogin(client, email: "nobody\(index)@demo.edugo.dev").status }
                }
                var all: [HTTPResponse.Status] = []
                for try await status in group { all.append(status) }
                return all
            }

            // Then the address limit (20) holds
            #expect(statuses.filter { $0 == .unauthorized }.count == 20)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 20)
        }
    }

    @Test("a locked account is refused even with the right password")
    func lockHoldsForRightPassword() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(loginPerAccount: 3))) { client in
            for _ in 0..<3 { _ = try await Self.failLogin(client) }

            let response = try await client.login(Self.student)

            try expectProblem(response, .tooManyRequests, "rate_limited")
        }
    }

    @Test("Retry-After counts down with the clock")
    func retryAfterCountsDown() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(loginPerAccount: 3))) { client in
            for _ in 0..<3 { _ = try await Self.failLogin(client) }

            clock.advance(by: 20)
            let response = try await Self.failLogin(client)

            #expect(response.status == .tooManyRequests)
            #expect(response.headers[.retryAfter] == "40")
        }
    }

    @Test("the lock lifts once the window has passed")
    func lockLiftsAfterWindow() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(loginPerAccount: 3))) { client in
            for _ in 0..<3 { _ = try await Self.failLogin(client) }
            #expect(try await Self.failLogin(client).status == .tooManyRequests)

            clock.advance(by: 61)

            #expect(try await client.login(Self.student).status == .ok)
        }
    }

    @Test("a successful login clears the account's failures")
    func successClearsFailures() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(loginPerAccount: 3))) { client in
            // Given two failures and then a success
            for _ in 0..<2 { _ = try await Self.failLogin(client) }
            #expect(try await client.login(Self.student).status == .ok)

            // Then three further failures are answered 401 before the fourth is throttled
            for _ in 0..<3 {
                try expectProblem(try await Self.failLogin(client), .unauthorized, "invalid_credentials")
            }
            try expectProblem(try await Self.failLogin(client), .tooManyRequests, "rate_limited")
        }
    }

    @Test("correct-password logins to an unverified account count as failures: the fourth answers 429 with Retry-After")
    func unverifiedLoginsAreBudgeted() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(loginPerAccount: 3))) { client in
            // Given a self-registered account that is never verified
            let newcomer = Credentials.newcomer()
            #expect(try await client.register(newcomer).status == .accepted)

            // When it signs in with the right password three times
            for _ in 0..<3 {
                try expectProblem(try await client.login(newcomer), .forbidden, "email_not_verified")
            }

            // Then the fourth attempt is throttled before any bcrypt
            let response = try await client.login(newcomer)
            try expectProblem(response, .tooManyRequests, "rate_limited")
            #expect(response.headers[.retryAfter] == "60")
        }
    }

    @Test("successful logins are budgeted too, per account and per address")
    func successfulLoginsAreBudgeted() async throws {
        let clock = TestClock()
        var limits = Self.limits()
        limits.loginAttemptsPerAccount = .init(limit: 3, window: .seconds(60))
        limits.loginAttemptsPerAddress = .init(limit: 5, window: .seconds(60))
        try await withServer(Self.configuration(clock, limits)) { client in
            // Given three successful sign-ins of one account
            for _ in 0..<3 { #expect(try await client.login(Self.student).status == .ok) }

            // When it signs in a fourth time, Then it is throttled with Retry-After
            let account = try await client.login(Self.student)
            try expectProblem(account, .tooManyRequests, "rate_limited")
            #expect(account.headers[.retryAfter] == "60")

            // And another account from the same address gets the address's remaining one (every
            // attempt counted against the address before its body was read, the throttled one too)
            #expect(try await client.login(.demoTeacher).status == .ok)
            try expectProblem(try await client.login(.demoTeacher), .tooManyRequests, "rate_limited")
        }
    }

    @Test("failed logins for an unknown email are throttled like any account")
    func unknownEmailIsThrottled() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(loginPerAccount: 2))) { client in
            for _ in 0..<2 { _ = try await Self.failLogin(client, email: "nobody@demo.edugo.dev") }

            let response = try await Self.failLogin(client, email: "nobody@demo.edugo.dev")

            try expectProblem(response, .tooManyRequests, "rate_limited")
        }
    }

    @Test("failed logins from one address are limited across accounts")
    func addressLimitSpansAccounts() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(loginPerAddress: 3))) { client in
            for index in 1...3 {
                _ = try await Self.failLogin(client, email: "student\(index)@demo.edugo.dev")
            }

            let response = try await client.login(.demoTeacher)

            try expectProblem(response, .tooManyRequests, "rate_limited")
            #expect(response.headers[.retryAfter] != nil)
        }
    }

    @Test("login limits are kept per tenant")
    func limitsArePerTenant() async throws {
        let clock = TestClock()
        let limits = Self.limits(loginPerAddress: 3, loginPerAccount: 3)
        try await withServer(Self.configuration(clock, limits)) { client in
            for _ in 0..<3 {
                _ = try await client.login(email: "admin@acme.example", password: "Wrong-Password-1", tenant: "demo")
            }
            #expect(try await client.login(email: "admin@acme.example", password: "x", tenant: "demo").status
                == .tooManyRequests)

            #expect(try await client.login(.acmeAdmin).status == .ok)
        }
    }

    @Test("forgot-password is limited per email with 429 and Retry-After")
    func forgotPasswordPerEmail() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(forgotPerAccount: 2))) { client in
            for _ in 0..<2 {
                #expect(try await client.forgotPassword(Self.student.email, tenant: "demo").status == .accepted)
            }

            let response = try await client.forgotPassword(Self.student.email, tenant: "demo")

            try expectProblem(response, .tooManyRequests, "rate_limited")
            #expect(response.headers[.retryAfter] == "60")
            #expect(try await client.mailbox(Self.student.email, tenant: "demo").count == 2)
        }
    }

    @Test("forgot-password is limited per address across emails")
    func forgotPasswordPerAddress() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(forgotPerAddress: 2))) { client in
            _ = try await client.forgotPassword("student1@demo.edugo.dev", tenant: "demo")
            _ = try await client.forgotPassword("student2@demo.edugo.dev", tenant: "demo")

            let response = try await client.forgotPassword("student3@demo.edugo.dev", tenant: "demo")

            try expectProblem(response, .tooManyRequests, "rate_limited")
            clock.advance(by: 61)
            #expect(try await client.forgotPassword("student3@demo.edugo.dev", tenant: "demo").status == .accepted)
        }
    }

    @Test("throttled forgot-password answers for unknown emails look the same as for known ones")
    func forgotPasswordThrottleDoesNotRevealAccounts() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(forgotPerAccount: 1))) { client in
            _ = try await client.forgotPassword(Self.student.email, tenant: "demo")
            _ = try await client.forgotPassword("nobody@demo.edugo.dev", tenant: "demo")

            let known = try await client.forgotPassword(Self.student.email, tenant: "demo")
            let unknown = try await client.forgotPassword("nobody@demo.edugo.dev", tenant: "demo")

            #expect(known.status == .tooManyRequests)
            #expect(unknown.status == .tooManyRequests)
            #expect(try known.decode(Problem.self).detail == unknown.decode(Problem.self).detail)
        }
    }

    @Test("refresh is limited per address with 429 and Retry-After")
    func refreshPerAddress() async throws {
        let clock = TestClock()
        try await withServer(Self.configuration(clock, Self.limits(refreshPerAddress: 2))) { client in
            var pair = try await client.signIn(Self.student)
            for _ in 0..<2 {
                pair = try await client.refresh(pair.refreshToken, tenant: "demo").decode(TokenPair.self)
            }

            let response = try await client.refresh(pair.refreshToken, tenant: "demo")

            try expectProblem(response, .tooManyRequests, "rate_limited")
            #expect(response.headers[.retryAfter] == "60")
            clock.advance(by: 61)
            #expect(try await client.refresh(pair.refreshToken, tenant: "demo").status == .ok)
        }
    }
}
