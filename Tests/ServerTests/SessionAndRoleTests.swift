import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Absolute session age, the last admin, trusted proxies; record ids and constraint errors.
@Suite(.timeLimit(.minutes(3))) struct SessionAndRoleTests {
    static let day: TimeInterval = 24 * 3600

    @Test("refreshing every 29 days keeps a session only up to the maximum session age (90 days)")
    func sessionsHaveAnAbsoluteAge() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            var pair = try await client.signIn(.demoStudent)
            for _ in 0..<3 {
                clock.advance(by: 29 * Self.day)
                let refreshed = try await client.refresh(pair.refreshToken, tenant: "demo")
                try #require(refreshed.status == .ok, "body: \(refreshed.text)")
                pair = try refreshed.decode(TokenPair.self)
            }

            // When the session is 91 days old, a refresh token issued at day 87 is refused
            clock.advance(by: 4 * Self.day)
            let response = try await client.refresh(pair.refreshToken, tenant: "demo")

            try expectProblem(response, .unauthorized, "invalid_refresh_token")
        }
    }

    @Test("the maximum session age is configurable")
    func maxSessionAgeIsConfigurable() async throws {
        let clock = TestClock()
        var configuration = ServerConfiguration.testing(clock: clock)
        configuration.sessions.maxAge = .seconds(3600)
        try await withServer(configuration) { client in
            let pair = try await client.signIn(.demoStudent)
            clock.advance(by: 3601)
            try expectProblem(try await client.refresh(pair.refreshToken, tenant: "demo"), .unauthorized, "invalid_refresh_token")
        }
    }

    @Test("two admins demoting each other at once leave the tenant with an admin")
    func concurrentMutualDemotionKeepsAnAdmin() async throws {
        for round in 0..<5 {
            try await withServer { client in
                // Given two admins
                let first = try await client.caller(.demoAdmin)
                let email = "second.admin@demo.edugo.dev"
                _ = try await client.send(
                    .post, "/v1/users", as: first,
                    body: ["email": email, "password": "Second-Admin-1", "first_name": "S", "last_name": "A", "role": "admin"])
                let second = try await client.caller(Credentials(email: email, password: "Second-Admin-1", tenant: "demo"))

                // When each demotes the other at the same time
                async let a = client.send(
                    .patch, "/v1/users/\(second.user.id)", as: first, body: ["role": "student", "version": 1])
                async let b = client.send(
                    .patch, "/v1/users/\(first.user.id)", as: second, body: ["role": "student", "version": first.user.version])
                let statuses = [try await a.status, try await b.status]

                // Then at most one succeeded, and an admin is left
                #expect(statuses.filter { $0 == .ok }.count <= 1, "round \(round): \(statuses)")
                // (the user list answers only an admin, and reads the caller's role afresh)
                var admins = 0
                for caller in [first, second] {
                    let listed = try await client.get("/v1/users?role=admin", as: caller)
                    if listed.status == .ok { admins = max(admins, try listed.decode(PageBody<UserBody>.self).total) }
                }
                #expect(admins >= 1, "round \(round): \(statuses)")
            }
        }
    }

    @Test("an admin whose role was taken away can no longer change other users' roles with the token they still hold")
    func demotedAdminLosesAdminWrites() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            _ = try await client.send(
                .post, "/v1/users", as: admin,
                body: ["email": "temp.admin@demo.edugo.dev", "password": "Temp-Admin-1", "first_name": "T", "last_name": "A", "role": "admin"])
            let temp = try await client.caller(Credentials(email: "temp.admin@demo.edugo.dev", password: "Temp-Admin-1", tenant: "demo"))
            let demoted = try await client.send(.patch, "/v1/users/\(temp.user.id)", as: admin, body: ["role": "student", "version": 1])
            #expect(demoted.status == .ok)

            let response = try await client.send(.patch, "/v1/users/\(admin.user.id)", as: temp, body: ["role": "student", "version": admin.user.version])

            #expect(response.status == .forbidden, "body: \(response.text)")
        }
    }

    @Test("the only admin is protected inside the transaction: 409 last_admin")
    func lastAdminGuard() async throws {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("guard")), at: nil)
        let now = Date()
        let admin = UserRecord(
            id: RecordID.make(), email: "a@example.com", emailKey: "a@example.com", passwordHash: "", firstName: "A",
            lastName: "A", role: .admin, emailVerified: true, version: 1, createdAt: now, updatedAt: now)
        try await database.writer.write { db in try admin.insert(db) }
        await #expect(throws: StoreError.self) {
            try await database.writer.read { db in try AdminGuard.keepOneAdmin(db, losing: admin.id) }
        }
    }

    @Test("record ids are random version-4 UUIDs")
    func recordIDsAreRandomV4() {
        let ids = (0..<1000).map { _ in RecordID.make() }
        #expect(Set(ids).count == 1000)
        for id in ids.prefix(20) {
            #expect(UUID(uuidString: id) != nil)
            #expect(Array(id)[14] == "4")
            #expect("89ab".contains(Array(id)[19]))
        }
    }

    struct FixedGenerator: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.removeFirst() }
    }

    @Test("a record id spells its 16 bytes as Foundation's UUID does, lowercased, with the version and variant bits set")
    func recordIDMatchesUUIDFormatting() {
        var generator = FixedGenerator(values: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210])
        let id = RecordID.make(using: &generator)
        #expect(id == "efcdab89-6745-4301-9032-547698badcfe")
        let uuid = UUID(uuid: (0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x43, 0x01, 0x90, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE))
        #expect(id == uuid.uuidString.lowercased())
    }

    static func user(id: String, email: String) -> UserRecord {
        let now = Date()
        return UserRecord(
            id: id, email: email, emailKey: email, passwordHash: "", firstName: "A", lastName: "B", role: .student,
            emailVerified: true, version: 1, createdAt: now, updatedAt: now)
    }

    /// What `mappingEmailTaken` turns inserting `user` into.
    static func insertError(_ user: UserRecord, into database: TenantDatabase) async -> (any Error)? {
        do {
            try await TenantStore.mappingEmailTaken {
                try await database.writer.write { db in try user.insert(db) }
            }
            return nil
        } catch {
            return error
        }
    }

    @Test("only the email uniqueness violation maps to email_taken; another constraint error stays internal")
    func onlyEmailUniquenessIsEmailTaken() async throws {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("ids")), at: nil)
        let first = Self.user(id: "same", email: "one@example.com")
        try await database.writer.write { db in try first.insert(db) }

        // A colliding id (what a degraded UUID source produced) is not "email taken"
        let idCollision = await Self.insertError(Self.user(id: "same", email: "two@example.com"), into: database)
        #expect(idCollision != nil)
        #expect(!(idCollision is StoreError), "\(String(describing: idCollision))")

        // A colliding email is
        let emailCollision = await Self.insertError(Self.user(id: "other", email: "one@example.com"), into: database)
        #expect((emailCollision as? StoreError).map(APIError.init)?.code == "email_taken")
    }

    @Test("with a trusted proxy, X-Forwarded-For names the client; from other peers it is ignored")
    func trustedProxyForwardedFor() {
        let middleware = ClientAddressMiddleware(trustedProxies: ["127.0.0.1/32", "10.0.0.0/8"].compactMap(CIDRBlock.init))
        #expect(middleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7"]) == "203.0.113.7")
        #expect(middleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.1, 203.0.113.7, 10.1.2.3"]) == "203.0.113.7")
        #expect(middleware.clientAddress(peer: "192.0.2.9", forwardedFor: ["203.0.113.7"]) == "192.0.2.9")
        #expect(middleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["not-an-ip"]) == "127.0.0.1")
        #expect(middleware.clientAddress(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
    }

    @Test("login limits count the forwarded client behind a trusted proxy, and the peer otherwise")
    func trustedProxyRateLimits() async throws {
        func run(trusted: [String]) async throws -> HTTPResponse.Status {
            var configuration = ServerConfiguration.testing()
            configuration.rateLimits = RateLimitTests.limits(loginPerAddress: 2)
            configuration.trustedProxies = trusted
            let app = try await buildApplication(configuration)
            return try await app.test(.live) { client in
                for _ in 0..<2 {
                    _ = try await client.send(
                        .post, "/v1/auth/login", tenant: "demo", json: TestJSON.body(["email": "x@demo.edugo.dev", "password": "Wrong-1234"]),
                        headers: [.xForwardedFor: "203.0.113.1"])
                }
                return try await client.send(
                    .post, "/v1/auth/login", tenant: "demo", json: TestJSON.body(["email": "y@demo.edugo.dev", "password": "Wrong-1234"]),
                    headers: [.xForwardedFor: "203.0.113.2"]
                ).status
            }
        }
        // Behind a trusted proxy another client has its own bucket
        #expect(try await run(trusted: ["127.0.0.1/32", "::1/128"]) == .unauthorized)
        // Without one, a forged header does not buy a new bucket
        #expect(try await run(trusted: []) == .tooManyRequests)
        #expect(try await run(trusted: ["10.0.0.0/8"]) == .tooManyRequests)
    }
}
