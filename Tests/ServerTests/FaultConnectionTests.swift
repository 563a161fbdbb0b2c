import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `drop_request` and `drop_response` over a real socket: the client sees its connection closed
/// without an answer; only `drop_response` lets the write commit.
@Suite(.timeLimit(.minutes(3))) struct FaultConnectionTests {
    /// Sends one request on a connection of its own (the suite's client keeps its connection).
    private func sendAlone(
        port: Int, _ method: HTTPRequest.Method, _ uri: String, bearer: String, json: String
    ) async throws -> TestClient.Response {
        try await TestClient.withClient(
            host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(10))
        ) { client in
            try await client.execute(
                TestClient.Request(
                    uri, method: method, authority: "localhost",
                    headers: [.authorization: "Bearer \(bearer)", .contentType: "application/json"],
                    body: ByteBuffer(string: json)))
        }
    }

    /// The request tail's entry for the progress write, which the client never saw answered.
    private func progressEntry(_ client: some TestClientProtocol) async throws -> DevConsoleDataTests.Tail.Entry {
        let tail = try await client.send(.get, "/__dev/requests?tenant=demo").decode(DevConsoleDataTests.Tail.self)
        return try #require(tail.items.first { $0.route == "/v1/courses/{id}/progress" && $0.method == "PUT" })
    }

    @Test("drop_response commits the write, then closes the connection without answering")
    func dropResponse() async throws {
        let app = try await buildApplication(.testing())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            try await client.injectFault(["method": "PUT", "path": "/v1/courses/*/progress", "action": "drop_response", "times": 1])

            // When the student records progress on a connection of its own
            await #expect(throws: TestClient.Error.connectionClosing) {
                _ = try await sendAlone(
                    port: port, .put, "/v1/courses/\(course.id)/progress", bearer: student.token,
                    json: ResourceJSON.body(["lesson_id": lesson.id, "watched_seconds": 120]))
            }

            // Then the write committed all the same
            let progress = try await client.get("/v1/courses/\(course.id)/progress", as: student).decode(CourseProgressBody.self)
            let record = try #require(progress.lessons.first { $0.lessonId == lesson.id })
            #expect(record.watchedSeconds == 120)
            #expect(record.version == 1)
            #expect(try await client.faultRules().map(\.fired) == [1])
            // And the request tail says the answer was dropped, and by which rule
            let entry = try await progressEntry(client)
            #expect(entry.dropped == "drop_response")
            #expect(entry.fault?.action == "drop_response")
        }
    }

    @Test("drop_request closes the connection without running the handler")
    func dropRequest() async throws {
        let app = try await buildApplication(.testing())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            try await client.injectFault(["method": "PUT", "path": "/v1/courses/*/progress", "action": "drop_request", "times": 1])

            await #expect(throws: TestClient.Error.connectionClosing) {
                _ = try await sendAlone(
                    port: port, .put, "/v1/courses/\(course.id)/progress", bearer: student.token,
                    json: ResourceJSON.body(["lesson_id": lesson.id, "watched_seconds": 120]))
            }

            // Then nothing was written
            let progress = try await client.get("/v1/courses/\(course.id)/progress", as: student).decode(CourseProgressBody.self)
            #expect(!progress.lessons.contains { $0.lessonId == lesson.id })
            #expect(try await progressEntry(client).dropped == "drop_request")
        }
    }
}
