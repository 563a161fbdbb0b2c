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

    static let attacker = Credentials(email: victim.email, password: "Attacker-Pass-1", tenant: "demo")

    /// The verification mails to the victim's address, oldest first.
    static func verificationMails(_ client: any TestClientProtocol) async throws -> [MailItem] {
        try await client.mailbox(victim.email, tenant: "demo").filter { $0.kind == "verify_email" }.reversed()
    }

    /// Expects that only `winner`'s password signs in, and that `loser`'s link is dead.
    static func expectOnly(_ winner: Credentials, over loser: Credentials, loserToken: String, _ client: any TestClientProtocol) async throws {
        #expect(try await client.login(winner).status == .ok)
        try expectProblem(try await client.login(loser), .unauthorized, "invalid_credentials")
        try expectProblem(try await client.verifyEmail(token: loserToken, tenant: "demo"), .badRequest, "invalid_token")
    }

    @Test("victim first, attacker second: the victim's own (older) mail sets the victim's password, and the attacker's link dies")
    func victimFirstKeepsOwnPassword() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given the victim's registration, then an attacker's of the same address a minute later
            #expect(try await client.register(Self.victim, firstName: "Ana").status == .accepted)
            clock.advance(by: 60)
            #expect(try await client.register(Self.attacker, firstName: "Mallory").status == .accepted)
            let mails = try await Self.verificationMails(client)
            try #require(mails.count == 2)

            // When the victim follows the mail of their own registration (not the newest)
            let verified = try await client.verifyEmail(token: mails[0].token, tenant: "demo")

            // Then the account is the victim's: their password and name, and the attacker's link is dead
            #expect(verified.status == .ok)
            #expect(try verified.decode(UserBody.self).firstName == "Ana")
            try await Self.expectOnly(Self.victim, over: Self.attacker, loserToken: mails[1].token, client)
        }
    }

    @Test("attacker first, victim second: the victim's (newest) mail sets the victim's password, and the attacker's link dies")
    func attackerFirstDoesNotSquat() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given an attacker's registration of the victim's address, then the victim's
            #expect(try await client.register(Self.attacker, firstName: "Mallory").status == .accepted)
            clock.advance(by: 60)
            #expect(try await client.register(Self.victim, firstName: "Ana").status == .accepted)
            let mails = try await Self.verificationMails(client)
            try #require(mails.count == 2)

            // When the victim follows the mail of their own registration
            let verified = try await client.verifyEmail(token: mails[1].token, tenant: "demo")

            // Then the account is the victim's, and the attacker's link is dead
            #expect(verified.status == .ok)
            #expect(try verified.decode(UserBody.self).firstName == "Ana")
            try await Self.expectOnly(Self.victim, over: Self.attacker, loserToken: mails[0].token, client)
        }
    }

    @Test("a registration of an address already pending says so in its mail, which names the time of its registration")
    func secondRegistrationMailSaysSo() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            _ = try await client.register(Self.victim)
            clock.advance(by: 60)
            _ = try await client.register(Self.attacker)

            let mails = try await Self.verificationMails(client)

            try #require(mails.count == 2)
            #expect(mails[0].body.contains("2026-11-18T11:06:40Z"))
            #expect(!mails[0].body.contains("other pending registration"))
            #expect(mails[1].body.contains("2026-11-18T11:07:40Z"))
            #expect(mails[1].body.contains("1 other pending registration"))
        }
    }

    @Test("resend-verification mails each pending registration again with its own time, and each new link sets its own password")
    func resendKeepsEachRegistrationsPassword() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given an attacker's registration and then the victim's, whose mails were lost
            _ = try await client.register(Self.attacker)
            clock.advance(by: 60)
            _ = try await client.register(Self.victim)
            clock.advance(by: 60)

            // When the victim asks for the mail again
            let resend = try await client.send(
                .post, "/v1/auth/resend-verification", tenant: "demo", json: TestJSON.body(["email": Self.victim.email]))
            #expect(resend.status == .accepted)

            // Then two new mails come, one per registration, and the one naming the victim's time sets the victim's password
            let resent = Array(try await Self.verificationMails(client).dropFirst(2))
            try #require(resent.count == 2)
            let own = try #require(resent.first { $0.body.contains("2026-11-18T11:07:40Z") })
            let other = try #require(resent.first { $0.body.contains("2026-11-18T11:06:40Z") })
            #expect(try await client.verifyEmail(token: own.token, tenant: "demo").status == .ok)
            try await Self.expectOnly(Self.victim, over: Self.attacker, loserToken: other.token, client)
        }
    }

    @Test("a verification link followed after a password reset verified the account changes nothing")
    func verificationAfterResetKeepsTheResetPassword() async throws {
        try await withServer { client in
            // Given an attacker's pending registration of the victim's address, which the victim took over by a reset
            _ = try await client.register(Self.attacker)
            let attackerToken = try await client.mailedToken("verify_email", to: Self.victim.email, tenant: "demo")
            _ = try await client.forgotPassword(Self.victim.email, tenant: "demo")
            let reset = try await client.mailedToken("reset_password", to: Self.victim.email, tenant: "demo")
            #expect(try await client.resetPassword(token: reset, password: Self.victim.password, tenant: "demo").status == .noContent)

            // When the attacker's verification link is followed afterwards
            _ = try await client.verifyEmail(token: attackerToken, tenant: "demo")

            // Then the reset password still signs in and the attacker's does not
            #expect(try await client.login(Self.victim).status == .ok)
            try expectProblem(try await client.login(Self.attacker), .unauthorized, "invalid_credentials")
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
