import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// Email pre-hijack and account enumeration: registration, reset and resend-verification.
@Suite(.timeLimit(.minutes(3))) struct AccountTakeoverTests {
    static let victim = Credentials.newcomer("victim@example.com")

    @Test("a successful password reset marks the email verified: a pre-registered account becomes the mail holder's")
    func resetVerifiesTheEmail() async throws {
        try await withServer { client in
            // Given an attacker who registered the victim's address first (never verified)
            _ = try await client.register(Credentials(email: Self.victim.email, password: "Attacker-Pass-1", tenant: "demo"))

            // When the victim resets the password through the mail
            #expect(try await client.forgotPassword(Self.victim.email, tenant: "demo").status == .accepted)
            let token = try await client.mailedToken("reset_password", to: Self.victim.email, tenant: "demo")
            #expect(try await client.resetPassword(token: token, password: "Victim-Pass-1", tenant: "demo").status == .noContent)

            // Then the victim signs in, and the attacker's password no longer works
            let login = try await client.login(email: Self.victim.email, password: "Victim-Pass-1", tenant: "demo")
            #expect(login.status == .ok, "body: \(login.text)")
            #expect(try login.decode(TokenPair.self).user.emailVerified)
            let attacker = try await client.login(email: Self.victim.email, password: "Attacker-Pass-1", tenant: "demo")
            try expectProblem(attacker, .unauthorized, "invalid_credentials")
        }
    }

    @Test("registering over a pending unverified account replaces it: the squatter's password stops working")
    func registrationReplacesAPendingAccount() async throws {
        try await withServer { client in
            // Given an attacker's unverified registration of the victim's address
            _ = try await client.register(Credentials(email: Self.victim.email, password: "Attacker-Pass-1", tenant: "demo"))
            let squatterToken = try await client.mailedToken("verify_email", to: Self.victim.email, tenant: "demo")

            // When the victim registers and verifies with the newest mail
            #expect(try await client.register(Self.victim).status == .accepted)
            let token = try await client.mailedToken("verify_email", to: Self.victim.email, tenant: "demo")
            #expect(token != squatterToken)
            #expect(try await client.verifyEmail(token: token, tenant: "demo").status == .ok)

            // Then only the victim's password signs in, and the squatter's token is dead
            #expect(try await client.login(Self.victim).status == .ok)
            let attacker = try await client.login(email: Self.victim.email, password: "Attacker-Pass-1", tenant: "demo")
            try expectProblem(attacker, .unauthorized, "invalid_credentials")
            try expectProblem(try await client.verifyEmail(token: squatterToken, tenant: "demo"), .badRequest, "invalid_token")
        }
    }

    @Test("resend-verification answers 202 alike for pending, verified and unknown emails; only a pending one gets a mail")
    func resendVerificationRevealsNothing() async throws {
        try await withServer { client in
            _ = try await client.register(Self.victim)
            var answers: [String] = []
            for email in [Self.victim.email, Credentials.demoStudent.email, "nobody@example.com"] {
                let response = try await client.send(
                    .post, "/v1/auth/resend-verification", tenant: "demo", json: TestJSON.body(["email": email]))
                #expect(response.status == .accepted)
                answers.append(response.text)
            }

            #expect(Set(answers).count == 1)
            #expect(try await client.mailbox(Self.victim.email, tenant: "demo").filter { $0.kind == "verify_email" }.count == 2)
            #expect(try await client.mailbox(Credentials.demoStudent.email, tenant: "demo").isEmpty)
        }
    }

    @Test("resend-verification is rate limited per email with 429 and Retry-After")
    func resendVerificationIsLimited() async throws {
        try await withServer { client in
            let body = TestJSON.body(["email": Self.victim.email])
            for _ in 0..<3 {
                #expect(try await client.send(.post, "/v1/auth/resend-verification", tenant: "demo", json: body).status == .accepted)
            }
            let response = try await client.send(.post, "/v1/auth/resend-verification", tenant: "demo", json: body)
            try expectProblem(response, .tooManyRequests, "rate_limited")
            #expect(response.headers[.retryAfter] != nil)
        }
    }

    @Test("registration is rate limited per address: the 11th in an hour answers 429 with Retry-After")
    func registrationIsLimitedPerAddress() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.rateLimits = .standard
        try await withServer(configuration) { client in
            for index in 0..<10 {
                #expect(try await client.register(.newcomer("n\(index)@example.com")).status == .accepted)
            }
            let response = try await client.register(.newcomer("n10@example.com"))
            try expectProblem(response, .tooManyRequests, "rate_limited")
            #expect(response.headers[.retryAfter] != nil)
        }
    }
}
