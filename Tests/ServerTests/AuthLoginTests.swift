import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

@Suite(.timeLimit(.minutes(3))) struct AuthLoginTests {
    @Test("logging in before verifying the email answers 403 email_not_verified")
    func unverifiedLoginIsRefused() async throws {
        try await withServer { client in
            // Given a registered but unverified account
            let account = Credentials.newcomer()
            _ = try await client.register(account)

            // When it logs in with the right password
            let response = try await client.login(account)

            // Then it is told to verify first
            try expectProblem(response, .forbidden, "email_not_verified")
        }
    }

    @Test("an unverified account with a wrong password answers 401, not 403")
    func unverifiedWrongPasswordIsInvalidCredentials() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()
            _ = try await client.register(account)

            let response = try await client.login(email: account.email, password: "Wrong-Password-1", tenant: "demo")

            try expectProblem(response, .unauthorized, "invalid_credentials")
        }
    }

    @Test("verifying with the mailed token answers 200 with the verified user")
    func verifyEmailMarksUserVerified() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()
            #expect(try await client.register(account).status == .accepted)
            let token = try await client.mailedToken("verify_email", to: account.email, tenant: "demo")

            let response = try await client.verifyEmail(token: token, tenant: "demo")

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let user = try response.decode(UserBody.self)
            #expect(user.email == account.email)
            #expect(user.emailVerified)
            #expect(user.version == 2)
        }
    }

    @Test("an unknown verification token answers 400 invalid_token")
    func unknownVerificationTokenIsRefused() async throws {
        try await withServer { client in
            let response = try await client.verifyEmail(token: "bm90LWEtcmVhbC10b2tlbg", tenant: "demo")

            try expectProblem(response, .badRequest, "invalid_token")
        }
    }

    @Test("verify-email without a token answers 400 validation_failed")
    func missingVerificationTokenIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/v1/auth/verify-email", tenant: "demo")

            try expectProblem(response, .badRequest, "validation_failed")
        }
    }

    @Test("a verification token works only once")
    func verificationTokenIsSingleUse() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()
            _ = try await client.register(account)
            let token = try await client.mailedToken("verify_email", to: account.email, tenant: "demo")
            #expect(try await client.verifyEmail(token: token, tenant: "demo").status == .ok)

            let second = try await client.verifyEmail(token: token, tenant: "demo")

            try expectProblem(second, .badRequest, "invalid_token")
        }
    }

    @Test("a verification token older than 24 hours answers 400 invalid_token")
    func expiredVerificationTokenIsRefused() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let account = Credentials.newcomer()
            _ = try await client.register(account)
            let token = try await client.mailedToken("verify_email", to: account.email, tenant: "demo")

            clock.advance(by: 25 * 3600)
            let response = try await client.verifyEmail(token: token, tenant: "demo")

            try expectProblem(response, .badRequest, "invalid_token")
            try expectProblem(try await client.login(account), .forbidden, "email_not_verified")
        }
    }

    @Test("a verification token is valid in its own tenant only")
    func verificationTokenIsTenantBound() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()
            _ = try await client.register(account)
            let token = try await client.mailedToken("verify_email", to: account.email, tenant: "demo")

            let response = try await client.verifyEmail(token: token, tenant: "acme")

            try expectProblem(response, .badRequest, "invalid_token")
        }
    }

    @Test("a verified account logs in and receives a bearer token pair")
    func loginReturnsTokenPair() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()
            let user = try await client.registerVerified(account)

            let response = try await client.login(account)

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(Set(try response.jsonObject().keys) == [
                "access_token", "refresh_token", "expires_in", "token_type", "user",
            ])
            let pair = try response.decode(TokenPair.self)
            #expect(pair.expiresIn == 900)
            #expect(pair.tokenType == "Bearer")
            #expect(pair.user == user)
            #expect(pair.accessToken.split(separator: ".").count == 3)
            // 256 random bits, base64url: 43 characters.
            #expect(pair.refreshToken.count == 43)
            #expect(Base64URL.decode(pair.refreshToken)?.count == 32)
        }
    }

    @Test("email matching at login ignores letter case and surrounding spaces")
    func loginEmailIsCaseInsensitive() async throws {
        try await withServer { client in
            let response = try await client.login(
                email: " ADMIN@Demo.EduGo.dev ", password: "Demo-Admin-2026", tenant: "demo")

            #expect(response.status == .ok)
        }
    }

    @Test(
        "every seeded demo account logs in with its role",
        arguments: [
            (Credentials.demoAdmin, "admin"), (Credentials.demoTeacher, "teacher"),
            (Credentials.demoStudent, "student"), (Credentials.acmeAdmin, "admin"),
        ])
    func seededAccountsLogIn(account: Credentials, role: String) async throws {
        try await withServer { client in
            let pair = try await client.signIn(account)

            #expect(pair.user.role == role)
            #expect(pair.user.email == account.email)
            #expect(pair.user.emailVerified)
        }
    }

    @Test("a wrong password answers 401 invalid_credentials")
    func wrongPasswordIsRefused() async throws {
        try await withServer { client in
            let response = try await client.login(
                email: Credentials.demoStudent.email, password: "Demo-Student-2025", tenant: "demo")

            try expectProblem(response, .unauthorized, "invalid_credentials")
        }
    }

    @Test("an unknown email answers 401 invalid_credentials, exactly like a wrong password")
    func unknownEmailIsRefusedLikeWrongPassword() async throws {
        try await withServer { client in
            let unknown = try expectProblem(
                try await client.login(email: "nobody@demo.edugo.dev", password: "Demo-Student-2026", tenant: "demo"),
                .unauthorized, "invalid_credentials")
            let wrong = try expectProblem(
                try await client.login(email: Credentials.demoStudent.email, password: "nope-nope", tenant: "demo"),
                .unauthorized, "invalid_credentials")

            #expect(unknown.detail == wrong.detail)
            #expect(unknown.title == wrong.title)
        }
    }

    @Test("a reset-password token cannot verify an email")
    func resetTokenDoesNotVerifyEmail() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()
            _ = try await client.register(account)
            _ = try await client.forgotPassword(account.email, tenant: "demo")
            let token = try await client.mailedToken("reset_password", to: account.email, tenant: "demo")

            let response = try await client.verifyEmail(token: token, tenant: "demo")

            try expectProblem(response, .badRequest, "invalid_token")
        }
    }

    @Test("a login with the 72-byte password plus further bytes is refused")
    func loginBeyondBcryptLimitIsRefused() async throws {
        try await withServer { client in
            // bcrypt only reads 72 bytes; the extra bytes must not be silently ignored
            var account = Credentials.newcomer()
            account.password = String(repeating: "p", count: 72)
            try await client.registerVerified(account)

            let response = try await client.login(
                email: account.email, password: account.password + "-anything", tenant: "demo")

            try expectProblem(response, .unauthorized, "invalid_credentials")
            #expect(try await client.login(account).status == .ok)
        }
    }

    @Test("a login whose password matches only up to a NUL byte is refused")
    func loginWithNULSuffixIsRefused() async throws {
        try await withServer { client in
            // bcrypt reads a C string: everything after a NUL byte would be ignored
            let account = Credentials.newcomer()
            try await client.registerVerified(account)

            let response = try await client.send(
                .post, "/v1/auth/login", tenant: "demo",
                json: #"{"email": "\#(account.email)", "password": "\#(account.password)\u0000junk"}"#)

            try expectProblem(response, .unauthorized, "invalid_credentials")
        }
    }

    @Test("GET /v1/auth/me with the access token answers the signed-in user")
    func meAnswersUser() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoTeacher)

            let response = try await client.me(pair.accessToken)

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(try response.decode(UserBody.self) == pair.user)
        }
    }

    @Test("GET /v1/auth/me without a token answers 401 with a Bearer challenge")
    func meWithoutTokenIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/v1/auth/me")

            try expectProblem(response, .unauthorized, "unauthorized")
            #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="edugo""#)
        }
    }

    @Test("a non-Bearer Authorization header answers 401")
    func basicAuthIsRefused() async throws {
        try await withServer { client in
            var headers = HTTPFields()
            headers[.authorization] = "Basic YWRtaW46cGFzc3dvcmQ="

            let response = try await client.send(.get, "/v1/auth/me", headers: headers)

            try expectTokenRefused(response)
        }
    }

    @Test("the default configuration hashes passwords with bcrypt cost 12")
    func defaultCostIsTwelve() async throws {
        // Given the configuration a real server starts with
        let configuration = ServerConfiguration()

        // When its hasher hashes a password
        let hash = try await PasswordHasher(cost: configuration.passwordHashCost).hash("Correct-Horse-9")

        // Then the stored form is bcrypt 2b at cost 12, and it verifies
        #expect(configuration.passwordHashCost == 12)
        #expect(hash.hasPrefix("$2b$12$"))
        #expect(try await PasswordHasher(cost: 12).verify("Correct-Horse-9", hash: hash))
    }
}
