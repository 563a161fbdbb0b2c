import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The fault kinds beyond fixed delay, status and drops: random delays, slow and truncated
/// bodies and garbage, through HTTP, each repeatable with a seed.
@Suite struct FaultKindTests {
    /// A raw HTTP/1.1 request (the connection closes after the answer).
    static func rawGet(_ path: String, bearer: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(bearer)\r\nConnection: close\r\n\r\n"
    }

    /// Splits what arrived into the head (up to the blank line) and the body bytes.
    static func split(_ bytes: [UInt8]) throws -> (head: String, body: [UInt8]) {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        let end = try #require((0...(bytes.count - separator.count)).first { Array(bytes[$0..<$0 + 4]) == separator })
        return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[(end + 4)...]))
    }

    static func contentLength(_ head: String) -> Int? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    /// The waits of `count` firings of a fresh rule made of `members`.
    static func waits(_ members: [String: JSONValue], count: Int) async throws -> [Int] {
        let injector = FaultInjector()
        let tenant = try #require(TenantID("demo"))
        _ = try await injector.add(members.merging(["path": .string("/x")]) { $1 }, tenant: tenant)
        var waits: [Int] = []
        for _ in 0..<count {
            waits.append(try #require(await injector.fire(tenant: tenant, method: "GET", path: "/x")).delayMs)
        }
        return waits
    }

    // MARK: Random delays

    @Test("a uniform random delay waits between min_ms and max_ms; with a seed the waits repeat")
    func uniformDelay() async throws {
        let rule: [String: JSONValue] = ["action": .string("delay"), "min_ms": .integer(100), "max_ms": .integer(300), "seed": .integer(5)]

        let first = try await Self.waits(rule, count: 40)
        let second = try await Self.waits(rule, count: 40)

        #expect(first == second)
        #expect(first.allSatisfy { (100...300).contains($0) })
        #expect(Set(first).count > 20)
        #expect(first.min().map { $0 < 150 } == true && first.max().map { $0 > 250 } == true)
    }

    @Test("a log-normal delay centres on median_ms and spreads with sigma; with a seed the waits repeat")
    func logNormalDelay() async throws {
        let rule: [String: JSONValue] = ["action": .string("delay"), "median_ms": .integer(200), "sigma": .number(0.5), "seed": .integer(8)]

        let first = try await Self.waits(rule, count: 101)
        let second = try await Self.waits(rule, count: 101)

        #expect(first == second)
        let median = first.sorted()[50]
        #expect((160...250).contains(median), "median \(median)")
        // sigma 0.5: about a sixth of the draws lie beyond e^0.5 ≈ 1.65 × the median
        let above = first.filter { $0 > 330 }.count
        #expect((5...35).contains(above), "\(above) draws above 330 ms")
    }

    @Test("through HTTP a random delay holds the request at least its drawn wait, then serves it")
    func randomDelayThroughHTTP() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            try await client.injectFault(["path": "/v1/courses", "action": "delay", "min_ms": 250, "max_ms": 300, "times": 1])
            try await client.injectFault(["path": "/v1/auth/me", "action": "delay", "median_ms": 250, "sigma": 0, "times": 1])

            for path in ["/v1/courses", "/v1/auth/me"] {
                let started = ContinuousClock.now
                let response = try await client.get(path, as: student)
                #expect(response.status == .ok)
                #expect(ContinuousClock.now - started >= .milliseconds(250), "\(path)")
            }
        }
    }

    // MARK: Bodies

    @Test("slow_body sends the head, then the whole body in pieces spread over duration_ms")
    func slowBody() async throws {
        let app = try await buildApplication(.testing())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let student = try await client.caller(.demoStudent)
            let whole = try await client.get("/v1/courses?limit=50", as: student)
            try await client.injectFault(["path": "/v1/courses", "action": "slow_body", "chunks": 5, "duration_ms": 600, "times": 1])

            let connection = try RawConnection(port: port)
            try connection.send(Self.rawGet("/v1/courses?limit=50", bearer: student.token))
            let (pieces, closed) = await connection.arrivals(timeout: .seconds(10))

            #expect(closed)
            let (head, body) = try Self.split(pieces.flatMap(\.bytes))
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(Self.contentLength(head) == body.count)
            #expect(body.count == whole.body.readableBytes)
            #expect(try JSONSerialization.jsonObject(with: Data(body)) as? NSDictionary
                == JSONSerialization.jsonObject(with: Data(whole.body.readableBytesView)) as? NSDictionary)
            let first = try #require(pieces.first?.at)
            let last = try #require(pieces.last?.at)
            #expect(last - first >= .milliseconds(450), "the body took \(last - first) after the first bytes")
            #expect(pieces.count >= 4, "\(pieces.count) pieces")
        }
    }

    @Test("truncate sends the head with the whole length, then only `bytes` of the body, and closes")
    func truncatedBody() async throws {
        let app = try await buildApplication(.testing())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let student = try await client.caller(.demoStudent)
            let whole = try await client.get("/v1/courses", as: student)
            try await client.injectFault(["path": "/v1/courses", "action": "truncate", "bytes": 10, "times": 1])

            let connection = try RawConnection(port: port)
            try connection.send(Self.rawGet("/v1/courses", bearer: student.token))
            let (pieces, closed) = await connection.arrivals(timeout: .seconds(10))

            #expect(closed)
            let (head, body) = try Self.split(pieces.flatMap(\.bytes))
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(body.count == 10)
            #expect(body.first == UInt8(ascii: "{"))
            #expect(try #require(Self.contentLength(head)) == whole.body.readableBytes)
            // And the rule retired: the next request is answered whole
            #expect(try await client.get("/v1/courses", as: student).status == .ok)
        }
    }

    @Test("garbage sends `bytes` random bytes instead of an answer and closes; the same seed sends the same bytes")
    func garbage() async throws {
        let app = try await buildApplication(.testing())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let student = try await client.caller(.demoStudent)
            var received: [[UInt8]] = []
            for _ in 0..<2 {
                try await client.injectFault(["path": "/v1/courses", "action": "garbage", "bytes": 48, "seed": 9, "times": 1])
                let connection = try RawConnection(port: port)
                try connection.send(Self.rawGet("/v1/courses", bearer: student.token))
                let (pieces, closed) = await connection.arrivals(timeout: .seconds(10))
                #expect(closed)
                received.append(pieces.flatMap(\.bytes))
            }

            #expect(received[0].count == 48)
            #expect(!received[0].starts(with: Array("HTTP/".utf8)))
            #expect(received[0] == received[1])
            let rules = try await client.faultRules()
            #expect(rules.map(\.action) == ["garbage", "garbage"])
            #expect(rules.map(\.fired) == [1, 1])
        }
    }

    // MARK: Validation

    @Test(
        "a rule with a bad or missing member of its kind answers 400 validation_failed naming it",
        arguments: [
            (["action": "slow_body", "duration_ms": 100], "chunks", "required"),
            (["action": "slow_body", "chunks": 0, "duration_ms": 100], "chunks", "out_of_range"),
            (["action": "truncate"], "bytes", "required"),
            (["action": "delay", "bytes": 5, "delay_ms": 1], "bytes", "not_allowed"),
            (["action": "status", "chunks": 2], "chunks", "not_allowed"),
            (["action": "delay", "min_ms": 10], "max_ms", "required"),
            (["action": "delay", "min_ms": 300, "max_ms": 100], "max_ms", "out_of_range"),
            (["action": "delay", "median_ms": 100], "sigma", "required"),
            (["action": "delay", "median_ms": 100, "sigma": 9], "sigma", "out_of_range"),
            (["action": "delay", "delay_ms": 5, "min_ms": 1, "max_ms": 2], "delay_ms", "invalid_value"),
            (["action": "delay"], "delay_ms", "required"),
            (["action": "garbage", "bytes": 0], "bytes", "out_of_range"),
        ] as [([String: any Sendable], String, String)])
    func invalidMembers(members: [String: any Sendable], field: String, code: String) async throws {
        try await withServer { client in
            var body: [String: Any] = ["path": "/v1/courses"]
            for (key, value) in members { body[key] = value }
            let response = try await client.send(.post, "/__dev/faults", tenant: "demo", json: ResourceJSON.body(body))

            try expectProblem(response, .badRequest, "validation_failed")
            #expect(response.text.contains("\"field\":\"\(field)\""), "\(response.text)")
            #expect(response.text.contains("\"code\":\"\(code)\""), "\(response.text)")
        }
    }

    @Test("the stored rule reports its kind's members")
    func ruleReportsItsMembers() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/__dev/faults", tenant: "demo",
                json: ResourceJSON.body(["path": "/v1/**", "action": "slow_body", "chunks": 4, "duration_ms": 800, "median_ms": 20, "sigma": 0.25]))
            #expect(response.status == .created)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            #expect(object["chunks"] as? Int == 4)
            #expect(object["duration_ms"] as? Int == 800)
            #expect(object["median_ms"] as? Int == 20)
            #expect(object["sigma"] as? Double == 0.25)
            #expect(object["bytes"] == nil)
            #expect(object["min_ms"] == nil)
        }
    }
}
