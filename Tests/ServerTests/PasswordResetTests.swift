import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

@Suite(.timeLimit(.minutes(3))) struct PasswordResetTests {
    @Test("forgot-password answers 202 with byte-identical bodies for known and unknown emails")
    func forgotPasswordDoesNotRevealAccounts() async throws {
        try await withServer { client in
            let known = try await client.forgotPassword(Credentials.demoStudent.email, tenant: "demo")
            let unknown = try await client.forgotPassword("nobody@demo.edugo.dev", tenant: "demo")

            #expect(known.status == .accepted)
            #expect(unknown.status == .accepted)
            #expect(known.body == unknown.body)
            #expect(known.text == #"{"status":"accepted"}"#)
            #expect(known.headers[.contentType] == unknown.headers[.contentType])
            #expect(known.headers[.cacheControl] == unknown.headers[.cacheControl])
        }
    }

    @Test("the reset mail reaches the dev mailbox only for a known account")
    func resetMailOnlyForKnownAccount() async throws {
        try await withServer { client in
            _ = try await client.forgotPassword(Credentials.demoStudent.email, tenant: "demo")
            _ = try await client.forgotPassword("nobody@demo.edugo.dev", tenant: "demo")

            let knownMails = try await client.mailbox(Credentials.demoStudent.email, tenant: "demo")
            let unknownMails = try await client.mailbox("nobody@demo.edugo.dev", tenant: "demo")

            #expect(knownMails.map(\.kind) == ["reset_password"])
            #expect(knownMails.first?.to == Credentials.demoStudent.email)
            #expect(unknownMails.isEmpty)
        }
    }

    @Test("resetting with the mailed token answers 204; the old password then fails and the new one works")
    func resetChangesPassword() async throws {
        try await withServer { client in
            let account = Credentials.demoStudent
            _ = try await client.forgotPassword(account.email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: account.email, tenant: "demo")

            let response = try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "demo")

            #expect(response.status == .noContent)
            try expectProblem(try await client.login(account), .unauthorized, "invalid_credentials")
            #expect(
                try await client.login(email: account.email, password: "Brand-New-Pass-1", tenant: "demo").status
                    == .ok)
        }
    }

    @Test("a reset token works only once")
    func resetTokenIsSingleUse() async throws {
        try await withServer { client in
            let email = Credentials.demoStudent.email
            _ = try await client.forgotPassword(email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: email, tenant: "demo")
            #expect(try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "demo").status
                == .noContent)

            let again = try await client.resetPassword(token: token, password: "Other-New-Pass-2", tenant: "demo")

            try expectProblem(again, .badRequest, "invalid_token")
            #expect(
                try await client.login(email: email, password: "Brand-New-Pass-1", tenant: "demo").status == .ok)
        }
    }

    @Test("concurrent resets with one token: exactly one succeeds")
    func concurrentResetsUseTokenOnce() async throws {
        try await withServer { client in
            let email = Credentials.demoStudent.email
            _ = try await client.forgotPassword(email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: email, tenant: "demo")

            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await client.resetPassword(token: token, password: "Racing-Pass-\(index)", tenant: "demo").status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == .noContent }.count == 1)
            #expect(statuses.filter { $0 == .badRequest }.count == 3)
        }
    }

    @Test("a reset token older than 30 minutes answers 400 invalid_token")
    func resetTokenExpires() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let account = Credentials.demoStudent
            _ = try await client.forgotPassword(account.email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: account.email, tenant: "demo")

            clock.advance(by: 31 * 60)
            let response = try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "demo")

            try expectProblem(response, .badRequest, "invalid_token")
            #expect(try await client.login(account).status == .ok)
        }
    }

    @Test("a successful reset retires the user's other outstanding reset tokens")
    func resetRetiresOtherResetTokens() async throws {
        try await withServer { client in
            // Given two reset mails (say the first one leaked)
            let email = Credentials.demoStudent.email
            _ = try await client.forgotPassword(email, tenant: "demo")
            let older = try await client.mailedToken("reset_password", to: email, tenant: "demo")
            _ = try await client.forgotPassword(email, tenant: "demo")
            let newer = try await client.mailedToken("reset_password", to: email, tenant: "demo")
            #expect(older != newer)

            // When the user resets with the newer one
            #expect(try await client.resetPassword(token: newer, password: "Users-Choice-1", tenant: "demo").status
                == .noContent)

            // Then the older one can no longer take the account over
            let takeover = try await client.resetPassword(token: older, password: "Attackers-Pick-1", tenant: "demo")
            try expectProblem(takeover, .badRequest, "invalid_token")
            #expect(try await client.login(email: email, password: "Users-Choice-1", tenant: "demo").status == .ok)
        }
    }

    @Test("an unknown reset token answers 400 invalid_token")
    func unknownResetTokenIsRefused() async throws {
        try await withServer { client in
            let response = try await client.resetPassword(
                token: "bm90LWEtcmVhbC10b2tlbg", password: "Brand-New-Pass-1", tenant: "demo")

            try expectProblem(response, .badRequest, "invalid_token")
        }
    }

    @Test("an email verification token cannot reset a password")
    func verificationTokenIsNotAResetToken() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()
            _ = try await client.register(account)
            let token = try await client.mailedToken("verify_email", to: account.email, tenant: "demo")

            let response = try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "demo")

            try expectProblem(response, .badRequest, "invalid_token")
        }
    }

    @Test("a reset to a password shorter than 8 bytes answers 400 validation_failed and keeps the token")
    func resetValidatesPassword() async throws {
        try await withServer { client in
            let email = Credentials.demoStudent.email
            _ = try await client.forgotPassword(email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: email, tenant: "demo")

            let problem = try expectProblem(
                try await client.resetPassword(token: token, password: "short", tenant: "demo"),
                .badRequest, "validation_failed")

            #expect(problem.errors?.map(\.field) == ["password"])
            #expect(try await client.resetPassword(token: token, password: "Long-Enough-1", tenant: "demo").status
                == .noContent)
        }
    }

    @Test("a password reset revokes the user's existing sessions")
    func resetRevokesSessions() async throws {
        try await withServer { client in
            // Given two live sessions
            let account = Credentials.demoStudent
            let phone = try await client.signIn(account)
            let laptop = try await client.signIn(account)

            // When the password is reset
            _ = try await client.forgotPassword(account.email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: account.email, tenant: "demo")
            _ = try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "demo")

            // Then neither session's access or refresh token works
            for session in [phone, laptop] {
                try expectTokenRefused(try await client.me(session.accessToken))
                try expectProblem(
                    try await client.refresh(session.refreshToken, tenant: "demo"), .unauthorized,
                    "invalid_refresh_token")
            }
        }
    }

    @Test("a password reset leaves other users' sessions alone")
    func resetIsPerUser() async throws {
        try await withServer { client in
            let teacher = try await client.signIn(.demoTeacher)
            _ = try await client.forgotPassword(Credentials.demoStudent.email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: Credentials.demoStudent.email, tenant: "demo")

            _ = try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "demo")

            #expect(try await client.me(teacher.accessToken).status == .ok)
        }
    }

    @Test("forgot-password with a malformed email answers 400 validation_failed")
    func forgotPasswordValidatesEmail() async throws {
        try await withServer { client in
            let response = try await client.forgotPassword("not-an-email", tenant: "demo")

            try expectProblem(response, .badRequest, "validation_failed")
        }
    }

    @Test("a reset token of one tenant is unknown in another")
    func resetTokenIsTenantBound() async throws {
        try await withServer { client in
            let email = Credentials.demoStudent.email
            _ = try await client.forgotPassword(email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: email, tenant: "demo")

            let response = try await client.resetPassword(token: token, password: "Brand-New-Pass-1", tenant: "acme")

            try expectProblem(response, .badRequest, "invalid_token")
        }
    }
}
