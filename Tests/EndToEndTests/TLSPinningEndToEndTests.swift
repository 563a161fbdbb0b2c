import AsyncHTTPClient
import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import NIOCore
import NIOSSL
import Testing

/// The SDK against a real server speaking TLS on loopback: pins, validation before pins,
/// rotation, the outbox, and both HTTP versions.
@Suite(.timeLimit(.minutes(3))) struct TLSPinningEndToEndTests {
    @Test("the right pin works: sign in and list courses over HTTPS, with Strict-Transport-Security")
    func rightPinWorks() async throws {
        try await EduGoTestServer.with(tls: true) { server in
            let tls = try #require(server.tls)
            #expect(server.baseURL.scheme == "https")
            let client = try pinnedClient(server, pins: [tls.pin])
            try await signInStudent(client, on: server)
            let page: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 5))
            #expect(!page.items.isEmpty)

            let transport = try AsyncHTTPClientTransport(
                pinning: CertificatePinning(pins: ["127.0.0.1": [tls.pin]], trustRoots: tls.certificateChainDER))
            let url = try Endpoint.health.url(relativeTo: server.baseURL)
            let health = try await transport.send(APIRequest(endpoint: .health, url: url, timeout: .seconds(30)))
            #expect(health.statusCode == 200)
            #expect(health.header("Strict-Transport-Security")?.hasPrefix("max-age=") == true)
        }
    }

    @Test("a backup pin works: only the second pin of the set matches the server's key")
    func backupPinWorks() async throws {
        try await EduGoTestServer.with(tls: true) { server in
            let tls = try #require(server.tls)
            let client = try pinnedClient(server, pins: [unrelatedPin(), tls.pin])
            try await signInStudent(client, on: server)
            let page: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 5))
            #expect(!page.items.isEmpty)
        }
    }

    @Test("a wrong pin fails with pinningFailed, is not retried, and the server never sees the request")
    func wrongPinFailsBeforeAnyRequest() async throws {
        try await EduGoTestServer.with(tls: true) { server in
            let before = try await server.loggedRequests().first?.sequence ?? 0
            // Retries allowed: a pinning failure must not use them.
            let client = try pinnedClient(server, pins: [unrelatedPin(), unrelatedPin()], retryPolicy: .aggressive)
            let student = server.account(.student)
            await #expect(throws: NetworkError.pinningFailed(host: "127.0.0.1")) {
                _ = try await AuthService(client: client).login(email: student.email, password: student.password)
            }
            let tls = try #require(server.tls)
            let transport = try AsyncHTTPClientTransport(
                pinning: CertificatePinning(pins: ["127.0.0.1": [unrelatedPin()]], trustRoots: tls.certificateChainDER))
            let url = try Endpoint.health.url(relativeTo: server.baseURL)
            await #expect(throws: NetworkError.pinningFailed(host: "127.0.0.1")) {
                _ = try await transport.send(APIRequest(endpoint: .health, url: url, timeout: .seconds(30)))
            }
            #expect(!NetworkError.pinningFailed(host: "127.0.0.1").isRetryable)
            // The server's access log saw neither the login nor the list.
            #expect(try await server.loggedRequests(after: before).isEmpty)
        }
    }

    @Test("an expired certificate fails even when its key is pinned")
    func expiredCertificateFails() async throws {
        try await withTemporaryDirectory { root in
            let expired = try makeIdentity(
                in: root, notValidBefore: Date().addingTimeInterval(-30 * 86400),
                notValidAfter: Date().addingTimeInterval(-86400))
            try await EduGoTestServer.with(tls: true, { $0.tls = expired }) { server in
                let before = try await server.loggedRequests().first?.sequence ?? 0
                let client = try pinnedClient(server, pins: [expired.pin])
                await #expect(throws: NetworkError.untrustedCertificate(host: "127.0.0.1")) {
                    try await signInStudent(client, on: server)
                }
                #expect(try await server.loggedRequests(after: before).isEmpty)
            }
        }
    }

    @Test("a certificate for another host name fails even when its key is pinned")
    func hostnameMismatchFails() async throws {
        try await withTemporaryDirectory { root in
            let elsewhere = try makeIdentity(in: root, names: [.dnsName("api.example.invalid")])
            try await EduGoTestServer.with(tls: true, { $0.tls = elsewhere }) { server in
                let before = try await server.loggedRequests().first?.sequence ?? 0
                let client = try pinnedClient(server, pins: [elsewhere.pin])
                await #expect(throws: NetworkError.untrustedCertificate(host: "127.0.0.1")) {
                    try await signInStudent(client, on: server)
                }
                #expect(try await server.loggedRequests(after: before).isEmpty)
            }
        }
    }

    @Test("after --tls-rotate a client pinned to the old primary and its backup keeps working; the old pin alone does not")
    func rotationKeepsBackupPinnedClients() async throws {
        try await withTemporaryDirectory { root in
            let tlsDirectory = root.appendingPathComponent("tls")
            let first = try TLSIdentity.development(in: tlsDirectory)
            let backup = try #require(first.backupPin)
            try await EduGoTestServer.with(
                { $0.storage = .directory(root.appendingPathComponent("data")); $0.tls = first }
            ) { server in
                let pinnedBoth = try pinnedClient(server, pins: [first.pin, backup])
                try await signInStudent(pinnedBoth, on: server)

                await server.stop()
                let rotated = try TLSIdentity.development(in: tlsDirectory, rotate: true)
                #expect(rotated.pin == backup)
                #expect(rotated.previousPin == first.pin)
                #expect(rotated.backupPin != nil && rotated.backupPin != backup)
                try await server.restart(tls: rotated)

                // A dev certificate is its own root: the client trusts the new one, pins unchanged.
                let afterRotation = try pinnedClient(server, pins: [first.pin, backup], trustRoots: rotated.certificateChainDER)
                try await signInStudent(afterRotation, on: server)
                let page: Page<Course> = try await afterRotation.execute(endpoint: .Courses.list(limit: 5))
                #expect(!page.items.isEmpty)
                let oldOnly = try pinnedClient(server, pins: [first.pin], trustRoots: rotated.certificateChainDER)
                await #expect(throws: NetworkError.pinningFailed(host: "127.0.0.1")) {
                    try await signInStudent(oldOnly, on: server)
                }
            }
        }
    }

    @Test("the outbox keeps a write through a pinning failure (no dead letter, the failure reported) and drains with the right pin")
    func outboxSurvivesPinningFailure() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with(tls: true) { server in
                let tls = try #require(server.tls)
                let student = server.account(.student)
                func offlineClient(pins: [String]) throws -> EduGoClient {
                    EduGoClient(
                        configuration: APIConfiguration(
                            baseURL: server.baseURL, tenantID: server.tenantID, retryPolicy: .none, readRefresh: patientReads,
                            pinning: try CertificatePinning(pins: ["127.0.0.1": pins], trustRoots: tls.certificateChainDER)),
                        dataDirectory: root, environment: fastEnvironment)
                }
                // Signed in with the right pin, then the app ships a wrong one.
                _ = try await offlineClient(pins: [tls.pin]).signIn(email: student.email, password: student.password)
                let wrong = try #require(try await offlineClient(pins: [unrelatedPin()]).resumeSession())
                try await wrong.profile.update(firstName: "Pinned")
                let report = await wrong.engine.syncNow()
                #expect(report.sent == 0)
                #expect(report.deadLettered == 0)
                #expect(try await wrong.engine.outbox.pending().count == 1)
                #expect(try await wrong.engine.outbox.deadLetters().isEmpty)
                #expect(wrong.engine.status.lastError?.contains("pinning_failed") == true)
                #expect(wrong.engine.status.isConnected)

                // The right pin again: the same write drains.
                let right = try #require(try await offlineClient(pins: [tls.pin]).resumeSession())
                let drained = await right.engine.syncNow()
                #expect(drained.sent == 1)
                #expect(try await right.engine.outbox.pending().isEmpty)
                let view = try pinnedClient(server, pins: [tls.pin])
                try await signInStudent(view, on: server)
                let me: User = try await view.execute(endpoint: .Users.me)
                #expect(me.firstName == "Pinned")
            }
        }
    }

    @Test("HTTP/2 (by ALPN) and HTTP/1.1 both serve the API over TLS")
    func bothHTTPVersionsServe() async throws {
        try await EduGoTestServer.with(tls: true) { server in
            let tls = try #require(server.tls)
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .certificates(
                try tls.certificateChainDER.map { try NIOSSLCertificate(bytes: Array($0), format: .der) })
            for version in [HTTPClient.Configuration.HTTPVersion.automatic, .http1Only] {
                var clientConfiguration = HTTPClient.Configuration(tlsConfiguration: configuration)
                clientConfiguration.httpVersion = version
                let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
                do {
                    var request = HTTPClientRequest(url: server.baseURL.absoluteString + "/v1/auth/login")
                    request.method = .POST
                    request.headers.add(name: "X-Tenant-ID", value: server.tenantID)
                    request.headers.add(name: "Content-Type", value: "application/json")
                    let student = server.account(.student)
                    let body = try JSONSerialization.data(withJSONObject: ["email": student.email, "password": student.password])
                    request.body = .bytes(ByteBuffer(bytes: body))
                    let response = try await client.execute(request, timeout: .seconds(60))
                    let data = try await response.body.collect(upTo: 1 << 20)
                    #expect(response.status == .ok)
                    #expect(response.version == (version == .http1Only ? .http1_1 : .http2))
                    let json = try JSONSerialization.jsonObject(with: Data(data.readableBytesView)) as? [String: Any]
                    let token = try #require(json?["access_token"] as? String)
                    var list = HTTPClientRequest(url: server.baseURL.absoluteString + "/v1/courses")
                    list.headers.add(name: "Authorization", value: "Bearer \(token)")
                    let courses = try await client.execute(list, timeout: .seconds(60))
                    _ = try await courses.body.collect(upTo: 1 << 20)
                    #expect(courses.status == .ok)
                    #expect(courses.version == response.version)
                    #expect(courses.headers.first(name: "Strict-Transport-Security") != nil)
                } catch {
                    try await client.shutdown()
                    throw error
                }
                try await client.shutdown()
            }
        }
    }
}
