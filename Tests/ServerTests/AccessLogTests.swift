import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import EduGoServer

/// The access log: one entry per request, without secrets, kept in a ring of the last 500.
@Suite(.timeLimit(.minutes(3))) struct AccessLogTests {
    @Test("each request leaves one entry with request id, tenant, method, route template, status, duration and bytes")
    func entryPerRequest() async throws {
        let deps = try await makeDependencies(.testing(), logger: Logger(label: "test"))
        let app = Application(router: buildRouter(deps), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.router) { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let response = try await client.send(
                .get, "/v1/courses/\(course.id)?q=secret-query", bearer: student.token, headers: [.xRequestID: "req-42"])

            let entry = try #require(deps.accessLog.entries.last)
            #expect(entry.requestID == "req-42")
            #expect(entry.tenant == "demo")
            #expect(entry.method == "GET")
            #expect(entry.route == "/v1/courses/{id}")
            #expect(entry.status == Int(response.status.code))
            #expect(entry.durationMs >= 0)
            #expect(entry.bytes == response.body.readableBytes)
            // Nothing secret: no raw path, query, token or password anywhere in the entries
            let logged = String(describing: deps.accessLog.entries)
            for secret in [course.id, "secret-query", student.token, Credentials.demoStudent.password] {
                #expect(!logged.contains(secret))
            }
        }
    }

    @Test("the ring keeps only the newest entries, oldest first")
    func ringKeepsTheNewest() {
        let buffer = AccessLogBuffer(capacity: 3)
        for number in 1...5 {
            buffer.append(AccessLogEntry(
                timestamp: Date(), requestID: "r\(number)", tenant: nil, method: "GET", route: "/health", status: 200,
                durationMs: 1, bytes: nil, dropped: nil))
        }

        #expect(buffer.entries.map(\.requestID) == ["r3", "r4", "r5"])
    }

    @Test("the JSON log format writes one object per line with the entry's members")
    func jsonLines() throws {
        let lines = Mutex<[String]>([])
        var logger = Logger(label: "edugo-server") { label in
            LineLogHandler(label: label, format: .json) { line in lines.withLock { $0.append(line) } }
        }
        logger.logLevel = .info
        let entry = AccessLogEntry(
            timestamp: Date(), requestID: "r1", tenant: "demo", method: "GET", route: "/v1/courses", status: 200,
            durationMs: 1.5, bytes: 12, dropped: nil)

        logger.info("request", metadata: entry.metadata.mapValues { Logger.MetadataValue.string($0) })

        let line = try #require(lines.withLock { $0.first })
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "request")
        #expect(object["level"] as? String == "info")
        #expect(object["route"] as? String == "/v1/courses")
        #expect(object["tenant"] as? String == "demo")
        #expect(object["status"] as? String == "200")
        #expect(object["bytes"] as? String == "12")
    }
}
