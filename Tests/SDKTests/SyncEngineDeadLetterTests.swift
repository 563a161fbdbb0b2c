import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// What the app can do with writes the server refused.
@Suite(.timeLimit(.minutes(2))) struct SyncEngineDeadLetterTests {
    static let path = "/v1/courses/course-2/enrollment"

    /// A harness whose enrollment in course-2 was refused with 404 and then is accepted.
    private func makeHarnessWithDeadLetter() async throws -> (OfflineHarness, DeadLetter) {
        let harness = try await OfflineHarness()
        harness.routes.on(
            .post, Self.path, .response(.problem(404, code: "not_found")),
            .response(.json(200, OfflineFixture.enrollment(courseID: "course-2"))))
        try await harness.enrollment.enroll(courseID: "course-2")
        await harness.engine.syncNow()
        let letter = try #require(try await harness.outbox.deadLetters().first)
        return (harness, letter)
    }

    @Test("retrying a dead letter queues it again with its Idempotency-Key")
    func retryQueuesWithTheSameKey() async throws {
        let (harness, letter) = try await makeHarnessWithDeadLetter()

        try await harness.outbox.retryDeadLetter(id: letter.id)

        #expect(try await harness.outbox.deadLetters().isEmpty)
        let item = try #require(try await harness.outbox.pending().first)
        #expect(item.idempotencyKey == letter.idempotencyKey)
        #expect(item.resource == letter.resource)
        #expect(item.path == letter.path)
        #expect(item.attempts == 1)  // its key was sent once: no later write is merged into it
        #expect(item.nextAttemptAt == nil)
    }

    @Test("a retried dead letter is sent again with the key of its first attempt")
    func retriedLetterIsSent() async throws {
        let (harness, letter) = try await makeHarnessWithDeadLetter()
        try await harness.outbox.retryDeadLetter(id: letter.id)

        let report = await harness.engine.syncNow()

        #expect(report.sent == 1)
        let keys = harness.requests(.post, Self.path).map { $0.headers["Idempotency-Key"] }
        #expect(keys == [letter.idempotencyKey, letter.idempotencyKey])
        #expect(try await harness.enrollment.enrolledCourseIDs().value == ["course-2"])
    }

    @Test("a retried stale dead letter starts a new 24 hours")
    func retriedStaleLetterIsNotStaleAgain() async throws {
        // Given a write that went stale
        let harness = try await OfflineHarness()
        harness.routes.on(.post, Self.path, .response(.json(200, OfflineFixture.enrollment(courseID: "course-2"))))
        try await harness.enrollment.enroll(courseID: "course-2")
        harness.environment.advance(by: .seconds(25 * 3600))
        await harness.engine.syncNow()
        let letter = try #require(try await harness.outbox.deadLetters().first)
        #expect(letter.reason == "stale")

        // When the app retries it
        try await harness.outbox.retryDeadLetter(id: letter.id)
        let report = await harness.engine.syncNow()

        // Then it is sent
        #expect(report.sent == 1)
        #expect(try await harness.outbox.deadLetters().isEmpty)
    }

    @Test("discarding a dead letter removes it for good")
    func discardRemoves() async throws {
        let (harness, letter) = try await makeHarnessWithDeadLetter()

        try await harness.outbox.discardDeadLetter(id: letter.id)

        #expect(try await harness.outbox.deadLetters().isEmpty)
        #expect(try await harness.outbox.pending().isEmpty)
        await harness.engine.refreshStatus()
        #expect(harness.engine.status.deadLetterCount == 0)
    }
}
