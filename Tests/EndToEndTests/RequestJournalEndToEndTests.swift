import EduGoSDK
import EduGoTesting
import Foundation
import Testing

/// `EduGoTestServer`'s request journal from an app test: a lost answer and its replay seen as two
/// deliveries of one applied write, and a failed verification that says what almost matched.
@Suite(.timeLimit(.minutes(3))) struct RequestJournalEndToEndTests {
    @Test("a progress write whose answer was lost, then replayed: two requests with one key, the first applied and lost, the second a delivered replay")
    func lostAnswerThenReplay() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let session = try await EduGoClient(
                    configuration: APIConfiguration(baseURL: server.baseURL, tenantID: "demo", retryPolicy: .none, readRefresh: patientReads),
                    dataDirectory: root, environment: fastEnvironment
                ).signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                #expect(await session.engine.syncNow().pullError == nil)
                let course = try #require(try await session.courses.list().value.first)
                try await session.enrollment.enroll(courseID: course.id)
                #expect(await session.engine.syncNow().sent == 1)
                let lesson = try #require(try await session.courses.lessons(courseID: course.id).value.first)
                try await server.clearRequests(tenantID: "demo")

                // Given the server loses its answer to the progress write once
                try await server.inject(.dropResponse, method: .put, path: "/v1/courses/*/progress", times: 1, tenantID: "demo")
                _ = try await session.progress.record(courseID: course.id, lessonID: lesson.id, watchedSeconds: 90)
                _ = await session.engine.syncNow()
                #expect(await session.engine.syncNow().sent == 1)

                // Then the journal shows one write sent twice with one key: applied once, answered once
                let puts = try await server.requests(matching: .init(.put, "/v1/courses/\(course.id)/progress"), tenantID: "demo")
                #expect(puts.count == 2, "\(puts)")
                let key = try #require(puts.first?.idempotencyKey)
                #expect(puts.allSatisfy { $0.idempotencyKey == key && $0.email == Demo.studentEmail && $0.role == "student" })
                #expect(puts.map(\.applied) == [true, false])
                #expect(puts.map(\.delivered) == [false, true])
                #expect(puts.first?.fault?.action == "drop_response")
                try await server.verify(.init(.put, "/v1/courses/*/progress", idempotencyKey: key, applied: true), count: .exactly(1), tenantID: "demo")
                try await server.verify(.init(.put, "/v1/courses/*/progress", user: Demo.studentEmail, delivered: false), count: .exactly(1), tenantID: "demo")
                try await server.verify(.init(.put, "/v1/courses/*/progress", status: 500), count: .never, tenantID: "demo")

                // And a verification that fails says what was found and what almost matched
                let failure = await #expect(throws: EduGoTestServer.VerificationFailure.self) {
                    try await server.verify(.init(.put, "/v1/courses/*/progress", applied: true), count: .exactly(2), tenantID: "demo")
                }
                #expect(failure?.matched.count == 1)
                #expect(failure?.nearMisses.first?.differences == ["its answer was a replay"])
                let text = failure.map { "\($0)" } ?? ""
                #expect(text.contains("expected exactly 2 request(s) matching PUT, /v1/courses/*/progress, applied, found 1"), "\(text)")
                #expect(text.contains("near miss"), "\(text)")
                let none = await #expect(throws: EduGoTestServer.VerificationFailure.self) {
                    try await server.verify(.init(.post, "/v1/courses/*/progress", ifMatch: "*"), tenantID: "demo")
                }
                #expect(none?.matched.isEmpty == true)
                #expect(none?.nearMisses.first?.differences == ["method PUT, not POST", "If-Match none, not *"])
            }
        }
    }
}
