import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// The JSON the dev console reads: `GET /__dev/requests`, `/__dev/tenants`, `/__dev/tenants/{id}/users`
/// and `/__dev/server`.
@Suite(.timeLimit(.minutes(3))) struct DevConsoleDataTests {
    struct Tail: Decodable {
        struct Entry: Decodable {
            struct Fault: Decodable { var ruleId: String; var action: String }
            var sequence: Int
            var timestamp: String
            var requestId: String
            var tenant: String?
            var method: String
            var route: String
            var status: Int
            var durationMs: Double
            var fault: Fault?
            var idempotencyKey: String?
            var replayed: Bool?
            /// How a fault lost the answer (`drop_request`, `drop_response`, `garbage`), if it did.
            var dropped: String?
        }

        var items: [Entry]
        var latestSequence: Int
        var capacity: Int
    }

    struct TenantPage: Decodable {
        struct Tenant: Decodable { var id: String; var name: String; var userCount: Int; var createdAt: String }
        var items: [Tenant]
        var page: Int
        var limit: Int
        var total: Int
    }

    struct UserPage: Decodable {
        struct User: Decodable { var email: String; var firstName: String; var role: String; var emailVerified: Bool }
        var items: [User]
        var total: Int
    }

    // MARK: Requests

    @Test("GET /__dev/requests lists the last requests newest first: route template, status, tenant, request id")
    func tailListsRequests() async throws {
        try await withServer { client in
            _ = try await client.send(.get, "/health", headers: [.xRequestID: "first"])
            _ = try await client.send(.get, "/v1/courses/some-secret-id", tenant: "demo", headers: [.xRequestID: "second"])

            let response = try await client.send(.get, "/__dev/requests")

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            HTTPHygieneTests.expectSecurityHeaders(response)
            let tail = try response.decode(Tail.self)
            #expect(tail.capacity == 500)
            #expect(tail.items.map(\.requestId).prefix(2) == ["second", "first"])
            let second = try #require(tail.items.first)
            #expect(second.route == "/v1/courses/{id}")
            #expect(second.status == 401)
            #expect(second.tenant == "demo")
            #expect(second.method == "GET")
            #expect(second.sequence == tail.latestSequence)
            #expect(!response.text.contains("some-secret-id"))
        }
    }

    @Test("after= returns only newer entries; tenant= and status= (exact or class) filter them")
    func tailFilters() async throws {
        try await withServer { client in
            _ = try await client.send(.get, "/health")
            let cursor = try await client.send(.get, "/__dev/requests").decode(Tail.self).latestSequence
            _ = try await client.send(.get, "/v1/courses", tenant: "acme")
            _ = try await client.send(.get, "/health")

            let newer = try await client.send(.get, "/__dev/requests?after=\(cursor)").decode(Tail.self)
            let acme = try await client.send(.get, "/__dev/requests?tenant=acme").decode(Tail.self)
            let clientErrors = try await client.send(.get, "/__dev/requests?status=4xx").decode(Tail.self)
            let exactly = try await client.send(.get, "/__dev/requests?status=200").decode(Tail.self)

            #expect(newer.items.map(\.route) == ["/health", "/v1/courses"])
            #expect(acme.items.map(\.route) == ["/v1/courses"])
            #expect(clientErrors.items.map(\.status) == [401])
            #expect(exactly.items.map(\.route) == ["/health", "/health"])
            #expect(newer.latestSequence == acme.latestSequence)
        }
    }

    @Test("a request a fault rule answered is marked with the rule and its action")
    func faultedRequestIsMarked() async throws {
        try await withServer { client in
            let rule = try await client.injectFault(["path": "/v1/courses", "action": "status", "status": 503, "times": 1])
            _ = try await client.send(.get, "/v1/courses", tenant: "demo")
            _ = try await client.send(.get, "/v1/courses", tenant: "demo")

            let tail = try await client.send(.get, "/__dev/requests?tenant=demo").decode(Tail.self)

            let courses = tail.items.filter { $0.route == "/v1/courses" }
            #expect(courses.map(\.status) == [401, 503])
            #expect(courses.last?.fault?.ruleId == rule.id)
            #expect(courses.last?.fault?.action == "status")
            #expect(courses.first?.fault == nil)
            #expect(courses.map(\.dropped) == [nil, nil])
        }
    }

    @Test("the console's own reads of /__dev are not kept, its writes are")
    func consoleReadsAreNotKept() async throws {
        try await withServer { client in
            for _ in 0..<3 { _ = try await client.send(.get, "/__dev/clock") }
            _ = try await client.send(.post, "/__dev/clock", json: #"{"advance_seconds":1}"#)

            let tail = try await client.send(.get, "/__dev/requests").decode(Tail.self)

            #expect(tail.items.map(\.route) == ["/__dev/clock"])
            #expect(tail.items.map(\.method) == ["POST"])
        }
    }

    @Test("malformed after, tenant or status answer 400 validation_failed naming each")
    func tailValidates() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/__dev/requests?after=-1&tenant=NOPE&status=6xx")

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(Set(problem.errors?.map(\.field) ?? []) == ["after", "tenant", "status"])
        }
    }

    @Test("the ring assigns increasing sequence numbers and keeps the newest when full")
    func ringSequence() {
        let buffer = AccessLogBuffer(capacity: 2)
        for number in 1...3 {
            buffer.append(AccessLogEntry(
                timestamp: Date(), requestID: "r\(number)", tenant: nil, method: "GET", route: "/health", status: 200,
                durationMs: 1, bytes: nil, dropped: nil))
        }

        let snapshot = buffer.snapshot()
        #expect(snapshot.kept.map(\.entry.sequence) == [2, 3])
        #expect(snapshot.latestSequence == 3)
    }

    // MARK: Tenants

    @Test("GET /__dev/tenants lists every tenant newest first with its user count")
    func tenantsAreListed() async throws {
        try await withServer { client in
            let created = try await client.send(.post, "/__dev/tenants").decode(DevEndpointsTests.CreatedTenant.self)

            let response = try await client.send(.get, "/__dev/tenants")

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let page = try response.decode(TenantPage.self)
            #expect(page.total == 3)
            #expect(page.items.first?.id == created.tenantId)
            #expect(page.items.first?.userCount == 3)
            #expect(Set(page.items.map(\.id)) == [created.tenantId, "demo", "acme"])
            #expect(page.items.first { $0.id == "demo" }?.name == "EduGo Demo")
            #expect(page.items.first { $0.id == "demo" }?.userCount == 9)
            #expect(Set(try response.jsonObject().keys) == ["items", "page", "limit", "total"])
        }
    }

    @Test("GET /__dev/tenants pages with page and limit, refusing a limit over 100")
    func tenantsPaginate() async throws {
        try await withServer { client in
            let first = try await client.send(.get, "/__dev/tenants?limit=1").decode(TenantPage.self)
            let second = try await client.send(.get, "/__dev/tenants?limit=1&page=2").decode(TenantPage.self)

            #expect(first.items.count == 1 && second.items.count == 1)
            #expect(first.items.first?.id != second.items.first?.id)
            try expectProblem(try await client.send(.get, "/__dev/tenants?limit=101"), .badRequest, "validation_failed")
        }
    }

    @Test("GET /__dev/tenants/{id}/users lists a tenant's accounts without password hashes; unknown → 404")
    func tenantUsersAreListed() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/__dev/tenants/acme/users")

            #expect(response.status == .ok)
            let page = try response.decode(UserPage.self)
            #expect(page.total == 4)
            #expect(page.items.contains { $0.email == "admin@acme.example" && $0.role == "admin" })
            #expect(!response.text.contains("password"))
            try expectProblem(try await client.send(.get, "/__dev/tenants/nobody/users"), .notFound, "tenant_not_found")
            try expectProblem(try await client.send(.get, "/__dev/tenants/NOT_VALID/users"), .notFound, "tenant_not_found")
        }
    }

    // MARK: Server

    @Test("GET /__dev/server reports version, uptime, storage, dev mode, TLS off without a pin, and traffic")
    func serverInfo() async throws {
        try await withServer { client in
            _ = try await client.send(.get, "/health")
            _ = try await client.send(.get, "/health")

            let response = try await client.send(.get, "/__dev/server")

            #expect(response.status == .ok)
            let object = try response.jsonObject()
            #expect(object["version"] as? String == ServerVersion.current)
            #expect(object["storage"] as? String == "memory")
            #expect(object["data_directory"] is NSNull)
            #expect(object["dev_mode"] as? Bool == true)
            #expect(object["metrics_enabled"] as? Bool == true)
            let tls = try #require(object["tls"] as? [String: Any])
            #expect(tls["enabled"] as? Bool == false)
            #expect(tls["pin"] is NSNull)
            let traffic = try #require(object["traffic"] as? [String: Any])
            #expect(traffic["window_seconds"] as? Int == 60)
            #expect(traffic["sampled_requests"] as? Int == 2)
            let routes = try #require(traffic["routes"] as? [[String: Any]])
            #expect(routes.first?["route"] as? String == "/health")
            #expect(routes.first?["count"] as? Int == 2)
        }
    }

    @Test("the reported version is openapi.yaml's info.version")
    func versionMatchesTheSpec() throws {
        let spec = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        #expect(spec.contains("\n  version: \(ServerVersion.current)\n"))
    }

    @Test("a server on a data directory reports its absolute path")
    func dataDirectoryIsReported() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            try await withServer(configuration) { client in
                let object = try await client.send(.get, "/__dev/server").jsonObject()

                #expect(object["storage"] as? String == "directory")
                #expect(object["data_directory"] as? String == directory.standardizedFileURL.path)
            }
        }
    }

    @Test("traffic: requests per second over the covered window, nearest-rank p50 and p99, busiest route first")
    func trafficFigures() {
        let start = ContinuousClock.now
        func kept(_ route: String, _ ms: Double, at seconds: Int) -> AccessLogBuffer.Kept {
            AccessLogBuffer.Kept(
                entry: AccessLogEntry(
                    timestamp: Date(), requestID: "r", tenant: nil, method: "GET", route: route, status: 200,
                    durationMs: ms, bytes: nil, dropped: nil),
                instant: start + .seconds(seconds))
        }
        let entries = [kept("/old", 1, at: 0)] + (1...100).map { kept("/a", Double($0), at: 70 + $0 % 10) }
            + [kept("/b", 5, at: 75)]

        let traffic = RouteTraffic.compute(kept: entries, ringIsFull: false, now: start + .seconds(90), uptime: .seconds(90))

        #expect(traffic.windowSeconds == 60)
        #expect(traffic.coveredSeconds == 60)
        #expect(traffic.sampledRequests == 101)
        #expect(traffic.routes.map(\.route) == ["/a", "/b"])
        let a = traffic.routes[0]
        #expect(a.count == 100)
        #expect(a.p50Ms == 50)
        #expect(a.p99Ms == 99)
        #expect(abs(a.requestsPerSecond - 100.0 / 60) < 0.001)
        // A young server divides by its uptime; a full ring by the span it still holds.
        #expect(RouteTraffic.compute(kept: entries, ringIsFull: false, now: start + .seconds(90), uptime: .seconds(20)).coveredSeconds == 20)
        #expect(RouteTraffic.compute(kept: Array(entries.dropFirst()), ringIsFull: true, now: start + .seconds(90), uptime: .seconds(90)).coveredSeconds == 19)
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
