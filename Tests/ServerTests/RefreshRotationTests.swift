import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

@Suite(.timeLimit(.minutes(3))) struct RefreshRotationTests {
    @Test("refreshing answers a new token pair with a different refresh token")
    func refreshRotates() async throws {
        try await withServer { client in
            let first = try await client.signIn(.demoStudent)

            let response = try await client.refresh(first.refreshToken, tenant: "demo")

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let second = try response.decode(TokenPair.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.accessToken != first.accessToken)
            #expect(second.expiresIn == 900)
            #expect(second.tokenType == "Bearer")
            #expect(second.user == first.user)
            #expect(try await client.me(second.accessToken).status == .ok)
        }
    }

    @Test("the new refresh token keeps the session: it rotates again and carries the same sid")
    func rotatedTokenRotatesAgain() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let first = try await client.signIn(.demoStudent)
            let second = try await client.refresh(first.refreshToken, tenant: "demo").decode(TokenPair.self)
            clock.advance(by: 60)

            let third = try await client.refresh(second.refreshToken, tenant: "demo")

            #expect(third.status == .ok)
            let sid = { (token: String) in try CompactJWT(token).payload["sid"] as? String }
            #expect(try sid(third.decode(TokenPair.self).accessToken) == sid(first.accessToken))
        }
    }

    @Test("a rotated refresh token presented again within the grace window answers a fresh pair")
    func reuseWithinGraceWindowAnswersFreshPair() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given a rotation whose response the client lost
            let login = try await client.signIn(.demoStudent)
            let lost = try await client.refresh(login.refreshToken, tenant: "demo").decode(TokenPair.self)

            // When the client retries with the old token 9 s later
            clock.advance(by: 9)
            let retry = try await client.refresh(login.refreshToken, tenant: "demo")

            // Then it gets a working pair of the same session
            #expect(retry.status == .ok)
            let pair = try retry.decode(TokenPair.self)
            #expect(pair.refreshToken != lost.refreshToken)
            #expect(try await client.me(pair.accessToken).status == .ok)
            #expect(try await client.refresh(pair.refreshToken, tenant: "demo").status == .ok)
        }
    }

    @Test("a rotated refresh token presented after the grace window answers 401 and revokes the whole family")
    func reuseAfterGraceWindowRevokesFamily() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given a session that rotated once
            let login = try await client.signIn(.demoStudent)
            let current = try await client.refresh(login.refreshToken, tenant: "demo").decode(TokenPair.self)

            // When the rotated token is replayed 11 s later
            clock.advance(by: 11)
            let replay = try await client.refresh(login.refreshToken, tenant: "demo")

            // Then it is refused and nothing of that session works any more
            try expectProblem(replay, .unauthorized, "invalid_refresh_token")
            try expectProblem(
                try await client.refresh(current.refreshToken, tenant: "demo"), .unauthorized, "invalid_refresh_token")
            try expectTokenRefused(try await client.me(current.accessToken))
            try expectTokenRefused(try await client.me(login.accessToken))
        }
    }

    @Test("revoking one session family leaves the user's other sessions alone")
    func familyRevocationIsPerSession() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let phone = try await client.signIn(.demoStudent)
            let laptop = try await client.signIn(.demoStudent)
            _ = try await client.refresh(phone.refreshToken, tenant: "demo")
            clock.advance(by: 11)

            _ = try await client.refresh(phone.refreshToken, tenant: "demo")

            #expect(try await client.me(laptop.accessToken).status == .ok)
            #expect(try await client.refresh(laptop.refreshToken, tenant: "demo").status == .ok)
        }
    }

    @Test("an unknown refresh token answers 401 invalid_refresh_token")
    func unknownRefreshTokenIsRefused() async throws {
        try await withServer { client in
            let response = try await client.refresh("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", tenant: "demo")

            try expectProblem(response, .unauthorized, "invalid_refresh_token")
        }
    }

    @Test("a refresh token is honoured only in its own tenant")
    func refreshTokenIsTenantBound() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoStudent)

            let response = try await client.refresh(pair.refreshToken, tenant: "acme")

            try expectProblem(response, .unauthorized, "invalid_refresh_token")
        }
    }

    @Test("a refresh token expires after its 30-day lifetime")
    func refreshTokenExpires() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            let pair = try await client.signIn(.demoStudent)

            clock.advance(by: 30 * 24 * 3600 + 1)

            try expectProblem(
                try await client.refresh(pair.refreshToken, tenant: "demo"), .unauthorized, "invalid_refresh_token")
        }
    }

    @Test("logout answers 204 and the access token is refused afterwards")
    func logoutRevokesAccessToken() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoStudent)

            let response = try await client.send(.post, "/v1/auth/logout", bearer: pair.accessToken)

            #expect(response.status == .noContent)
            #expect(response.body.readableBytes == 0)
            try expectTokenRefused(try await client.me(pair.accessToken))
        }
    }

    @Test("a refresh token of a logged-out session answers 401 invalid_refresh_token")
    func refreshAfterLogoutIsRefused() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoStudent)
            _ = try await client.send(.post, "/v1/auth/logout", bearer: pair.accessToken)

            let response = try await client.refresh(pair.refreshToken, tenant: "demo")

            try expectProblem(response, .unauthorized, "invalid_refresh_token")
        }
    }

    @Test("logout ends only its own session")
    func logoutIsPerSession() async throws {
        try await withServer { client in
            let phone = try await client.signIn(.demoStudent)
            let laptop = try await client.signIn(.demoStudent)

            _ = try await client.send(.post, "/v1/auth/logout", bearer: phone.accessToken)

            #expect(try await client.me(laptop.accessToken).status == .ok)
        }
    }

    @Test("logout without a token answers 401")
    func logoutRequiresToken() async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/v1/auth/logout")

            try expectProblem(response, .unauthorized, "unauthorized")
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
        }
    }

    @Test("a refresh without X-Tenant-ID answers 400 validation_failed")
    func refreshNeedsTenant() async throws {
        try await withServer { client in
            let pair = try await client.signIn(.demoStudent)

            let response = try await client.send(
                .post, "/v1/auth/refresh", json: TestJSON.body(["refresh_token": pair.refreshToken]))

            try expectProblem(response, .badRequest, "validation_failed")
        }
    }
}
