import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `POST /__dev/tenants/{id}/users/{userId}/token`: the dev backend acting as one of a tenant's
/// users (the console's "Act as a user"), with a short-lived token that stands for no session.
@Suite(.timeLimit(.minutes(3))) struct ImpersonationTests {
    struct Impersonation: Decodable {
        var accessToken: String
        var tokenType: String
        var expiresIn: Int
        var user: UserBody
    }

    struct JournalEntries: Decodable {
        struct Entry: Decodable {
            var path: String
            var userId: String?
            var impersonated: Bool?
        }

        var items: [Entry]
    }

    struct UserList: Decodable {
        var items: [UserBody]
    }

    private func impersonate(_ client: some TestClientProtocol, _ userID: String, tenant: String = "demo") async throws
        -> Impersonation
    {
        let response = try await client.send(.post, "/__dev/tenants/\(tenant)/users/\(userID)/token")
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(Impersonation.self)
    }

    @Test("a minted token calls the API as the user, says who acts in `act`, lives at most 300 s, and the journal marks its requests impersonated")
    func actsAsTheUser() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given the demo student, signed in on a device
            let device = try await client.signIn(.demoStudent)

            // When the dev backend mints a token for the student and calls as them
            let acting = try await impersonate(client, device.user.id)
            let me = try await client.me(acting.accessToken)

            // Then the API answers as the student, the token names its actor, and lives 300 s
            #expect(me.status == .ok, "\(me.text)")
            #expect(try me.decode(UserBody.self).email == Credentials.demoStudent.email)
            #expect(acting.user.id == device.user.id && acting.tokenType == "Bearer" && acting.expiresIn == 300)
            let claims = try CompactJWT(acting.accessToken).payload
            #expect((claims["act"] as? [String: Any])?["sub"] as? String == "edugo-dev")
            #expect((claims["exp"] as? NSNumber)?.doubleValue == (claims["iat"] as? NSNumber).map { $0.doubleValue + 300 })

            // And the journal marks the impersonated request, not the device's own
            #expect(try await client.me(device.accessToken).status == .ok)
            let journal = try await client.send(.get, "/__dev/tenants/demo/requests?path=/v1/auth/me").decode(JournalEntries.self)
            #expect(journal.items.map(\.impersonated) == [nil, true])
            #expect(journal.items.allSatisfy { $0.userId == device.user.id })

            // And past its 300 seconds the token is refused
            clock.advance(by: 301)
            #expect(try await client.me(acting.accessToken).status == .unauthorized)
        }
    }

    @Test("minting starts no session: with two sessions a user allowed, five tokens later both devices are still signed in")
    func startsNoSession() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.sessions.maxPerUser = 2
        try await withServer(configuration) { client in
            // Given a device signed in
            let first = try await client.signIn(.demoStudent)

            // When five tokens are minted for its user, and a second device signs in
            for _ in 0..<5 {
                let acting = try await impersonate(client, first.user.id)
                #expect(try await client.me(acting.accessToken).status == .ok)
            }
            let second = try await client.signIn(.demoStudent)

            // Then both devices' sessions stand (a session per token would have ended the first)
            #expect(try await client.me(first.accessToken).status == .ok)
            #expect(try await client.me(second.accessToken).status == .ok)
            #expect(try await client.refresh(first.refreshToken, tenant: "demo").status == .ok)
        }
    }

    @Test("the user's current role applies, a deleted user's token is refused, and an unknown user or tenant is a 404")
    func followsTheAccount() async throws {
        try await withServer { client in
            // Given a newcomer acted as
            let registered = try await client.register(.newcomer())
            #expect(registered.status.code / 100 == 2, "\(registered.text)")
            let admin = try await client.signIn(.demoAdmin)
            let users = try await client.send(.get, "/v1/users?limit=100", bearer: admin.accessToken).decode(UserList.self)
            let newcomer = try #require(users.items.first { $0.email == Credentials.newcomer().email })
            let acting = try await impersonate(client, newcomer.id)

            // When the admin makes the newcomer a teacher, the token acts as a teacher
            let promoted = try await client.send(
                .patch, "/v1/users/\(newcomer.id)", bearer: admin.accessToken,
                json: "{\"role\":\"teacher\",\"version\":\(newcomer.version)}")
            #expect(promoted.status == .ok, "\(promoted.text)")
            #expect(try await client.me(acting.accessToken).decode(UserBody.self).role == "teacher")

            // When the admin deletes the newcomer, the token is refused
            let deleted = try await client.send(.delete, "/v1/users/\(newcomer.id)", bearer: admin.accessToken)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            #expect(try await client.me(acting.accessToken).status == .unauthorized)

            // And minting for a user or a tenant that does not exist answers 404
            try expectProblem(try await client.send(.post, "/__dev/tenants/demo/users/\(newcomer.id)/token"), .notFound, "not_found")
            try expectProblem(try await client.send(.post, "/__dev/tenants/nowhere/users/\(newcomer.id)/token"), .notFound, "tenant_not_found")
        }
    }

    @Test("a server outside dev mode refuses a token its data directory's key signed in a dev run, and has no route to mint one")
    func refusedOutsideDevMode() async throws {
        try await withTemporaryDirectory { directory in
            let clock = TestClock()
            var dev = ServerConfiguration.testing(clock: clock)
            dev.storage = .directory(directory)
            // Given a token minted by the dev backend, and a signed-in session, on a data directory
            let (acting, device) = try await withServer(dev) { client in
                let device = try await client.signIn(.demoStudent)
                return (try await impersonate(client, device.user.id), device)
            }

            // When the same data directory is served outside dev mode
            var production = dev
            production.devMode = false
            production.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
            try await withServer(production) { client in
                // Then the impersonation token is refused, while the signed-in session goes on
                let refused = try await client.me(acting.accessToken)
                #expect(refused.status == .unauthorized, "\(refused.text)")
                #expect(refused.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
                #expect(try await client.me(device.accessToken).status == .ok)
                // And there is no route to mint one
                try expectProblem(
                    try await client.send(.post, "/__dev/tenants/demo/users/\(device.user.id)/token"), .notFound, "not_found")
            }
        }
    }
}
