import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The real `edugo-server` binary on a data directory: what survives a restart and a crash.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct PersistenceTests {
    /// Runs `body` against a freshly launched server and always stops it afterwards.
    func withLiveServer<Value>(
        dataDirectory: URL, _ body: (ServerProcess, LiveClient) async throws -> Value
    ) async throws -> Value {
        let server = try await ServerProcess.launch(dataDirectory: dataDirectory)
        let client = LiveClient(baseURL: server.baseURL)
        defer { client.session.invalidateAndCancel() }
        do {
            let value = try await body(server, client)
            await server.stop()
            return value
        } catch {
            await server.kill()
            throw error
        }
    }

    @Test("after a graceful restart on the same data directory, accounts, sessions and the signing key survive")
    func gracefulRestartKeepsEverything() async throws {
        try await withTemporaryDirectory { directory in
            let account = Credentials.newcomer("persist@example.com")

            // Given a verified account with a live session, and a server stopped with SIGTERM
            let (pair, kid) = try await withLiveServer(dataDirectory: directory) { server, client in
                try await client.registerVerified(account)
                let login = try await client.login(account)
                try #require(login.status == 200, "login answered \(login.status): \(login.text)")
                let jwks = try await client.send("GET", "/.well-known/jwks.json").decode(JWKSBody.self)
                let stoppedCleanly = await server.stop()
                #expect(stoppedCleanly, "SIGTERM should end the server with status 0; stderr: \(server.stderr.value)")
                return (try login.decode(TokenPair.self), jwks.keys.first?.kid)
            }

            // When it starts again on the same directory
            try await withLiveServer(dataDirectory: directory) { _, client in
                // Then the signing key is the same, the old access token still verifies,
                let jwks = try await client.send("GET", "/.well-known/jwks.json").decode(JWKSBody.self)
                #expect(jwks.keys.first?.kid == kid)
                let me = try await client.send("GET", "/v1/auth/me", bearer: pair.accessToken)
                #expect(me.status == 200, "body: \(me.text)")
                #expect(try me.decode(UserBody.self).id == pair.user.id)

                // the old refresh token still rotates,
                let refreshed = try await client.send(
                    "POST", "/v1/auth/refresh", tenant: "demo",
                    json: TestJSON.body(["refresh_token": pair.refreshToken]))
                #expect(refreshed.status == 200, "body: \(refreshed.text)")

                // the account still logs in, and the seeded demo data was kept, not seeded twice.
                #expect(try await client.login(account).status == 200)
                #expect(try await client.login(.demoAdmin).status == 200)
                let health = try await client.send("GET", "/health")
                #expect(health.status == 200)
            }
        }
    }

    @Test("a registration acknowledged with 202 survives kill -9")
    func acknowledgedWriteSurvivesCrash() async throws {
        try await withTemporaryDirectory { directory in
            let account = Credentials.newcomer("crash@example.com")

            // Given a registration the server acknowledged, and then a SIGKILL straight away
            try await withLiveServer(dataDirectory: directory) { server, client in
                let registered = try await client.register(account)
                try #require(registered.status == 202, "register answered \(registered.status): \(registered.text)")
                await server.kill()
                #expect(server.killedBySignal)
            }

            // When the server starts again on the same directory
            try await withLiveServer(dataDirectory: directory) { _, client in
                // Then the account exists: its password is checked and only the verification is missing
                let login = try await client.login(account)
                #expect(login.status == 403, "body: \(login.text)")
                #expect(login.headers["content-type"] == "application/problem+json")
                #expect(try login.decode(Problem.self).code == "email_not_verified")
            }
        }
    }

    @Test("a burst of acknowledged course writes survives kill -9 right after the last acknowledgement")
    func acknowledgedBurstSurvivesCrash() async throws {
        try await withTemporaryDirectory { directory in
            // Given 40 course creations sent 8 at a time, each acknowledged with 201, then SIGKILL
            let acknowledged = try await withLiveServer(dataDirectory: directory) { server, client -> [String: String] in
                let login = try await client.login(.demoTeacher)
                let token = try login.decode(TokenPair.self).accessToken
                var created: [String: String] = [:]
                for batch in stride(from: 0, to: 40, by: 8) {
                    try await withThrowingTaskGroup(of: (String, String)?.self) { group in
                        for index in batch..<(batch + 8) {
                            group.addTask {
                                let title = "Curso ráfaga \(index)"
                                let response = try await client.send(
                                    "POST", "/v1/courses", bearer: token,
                                    json: TestJSON.body(["title": title, "category": "science"]))
                                guard response.status == 201 else { return nil }
                                let body = try response.decode([String: JSONValueProbe].self)
                                guard case .string(let id) = body["id"] else { return nil }
                                return (id, title)
                            }
                        }
                        for try await result in group {
                            if let (id, title) = result { created[id] = title }
                        }
                    }
                }
                await server.kill()
                #expect(server.killedBySignal)
                return created
            }
            #expect(acknowledged.count == 40)

            // When the server starts again, then every acknowledged course is there, unchanged
            try await withLiveServer(dataDirectory: directory) { _, client in
                let login = try await client.login(.demoTeacher)
                let token = try login.decode(TokenPair.self).accessToken
                for (id, title) in acknowledged {
                    let response = try await client.send("GET", "/v1/courses/\(id)", bearer: token)
                    #expect(response.status == 200, "course \(id) lost: \(response.status)")
                    let body = try response.decode([String: JSONValueProbe].self)
                    #expect(body["title"] == .string(title))
                }
            }
        }
    }

    @Test("a dev tenant answered with 201 survives kill -9 right after the answer, accounts and courses whole")
    func createdTenantSurvivesCrash() async throws {
        try await withTemporaryDirectory { directory in
            // Given a tenant made from the built-in fixture, and a SIGKILL as soon as it is answered
            let created = try await withLiveServer(dataDirectory: directory) { server, client -> DevTenantBody in
                let response = try await client.send("POST", "/__dev/tenants")
                try #require(response.status == 201, "POST /__dev/tenants answered \(response.status): \(response.text)")
                await server.kill()
                #expect(server.killedBySignal)
                return try response.decode(DevTenantBody.self)
            }

            // When the server starts again on the same directory
            try await withLiveServer(dataDirectory: directory) { _, client in
                // Then its admin signs in and sees every course of the fixture
                let admin = try #require(created.accounts.first { $0.role == "admin" })
                let login = try await client.login(
                    Credentials(email: admin.email, password: admin.password, tenant: created.tenantId))
                try #require(login.status == 200, "login answered \(login.status): \(login.text)")
                let token = try login.decode(TokenPair.self).accessToken
                let courses = try await client.send("GET", "/v1/courses?limit=100", bearer: token)
                #expect(courses.status == 200)
                let items = (try JSONSerialization.jsonObject(with: courses.body) as? [String: Any])?["items"] as? [Any]
                #expect(items?.count == (try BundledSeeds.testTenant).courses.count)
            }
        }
    }

    @Test("the shipped binary stores passwords as bcrypt cost 12")
    func binaryHashesWithCostTwelve() async throws {
        try await withTemporaryDirectory { directory in
            let account = Credentials.newcomer("cost@example.com")
            try await withLiveServer(dataDirectory: directory) { _, client in
                let registered = try await client.register(account)
                try #require(registered.status == 202, "register answered \(registered.status): \(registered.text)")
            }

            let database = try TenantDatabase.open(
                tenantID: try #require(TenantID("demo")),
                at: directory.appendingPathComponent("tenants/demo.sqlite"))
            let users = try await database.writer.read { db in try UserRecord.fetchAll(db) }
            let hashes = [account.email, Credentials.demoAdmin.email].map { email in
                users.first { $0.emailKey == email }?.passwordHash
            }

            #expect(hashes.count == 2)
            for hash in hashes {
                #expect(hash?.hasPrefix("$2b$12$") == true, "stored hash: \(hash ?? "none")")
            }
        }
    }

    @Test("the signing key is written once, readable by the owner only, and reloaded on the next start")
    func signingKeyFileIsPrivate() async throws {
        try await withTemporaryDirectory { directory in
            let first = try SigningKey.loadOrCreate(storage: .directory(directory))
            let second = try SigningKey.loadOrCreate(storage: .directory(directory))

            let keys = directory.appendingPathComponent("keys")
            let file = keys.appendingPathComponent("es256-signing-key.pem")
            let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            let directoryMode = try FileManager.default.attributesOfItem(atPath: keys.path)[.posixPermissions] as? Int
            #expect(fileMode == 0o600)
            #expect(directoryMode == 0o700)
            #expect(first.kid == second.kid)
            #expect(first.publicJWK == second.publicJWK)
        }
    }

    @Test("a demo tenant seeded but not yet registered when the first start died does not stop the next start")
    func interruptedSeedingRecovers() async throws {
        try await withTemporaryDirectory { directory in
            // Given the state a crash between seeding demo.sqlite and writing its registry row leaves
            let tenants = directory.appendingPathComponent("tenants")
            try FileManager.default.createDirectory(at: tenants, withIntermediateDirectories: true)
            let demo = try TenantDatabase.open(
                tenantID: try #require(TenantID("demo")), at: tenants.appendingPathComponent("demo.sqlite"))
            try await Seeder(passwords: PasswordHasher(cost: 4), now: Date()).seedDemo("demo", into: TenantStore(demo))

            // When the server starts on that directory
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)

            // Then it starts and serves the demo tenant
            let status = try await withServer(configuration) { client in
                try await client.login(.demoAdmin).status
            }
            #expect(status == .ok)
        }
    }
}

/// A loosely typed JSON value, enough to read a response's members.
enum JSONValueProbe: Decodable, Equatable {
    case string(String), number(Double), bool(Bool), null, other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else { self = .other }
    }
}
