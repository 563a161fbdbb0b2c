import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Progress in a course needs the enrollment in it: while an enrollment is queued, the course's
/// progress waits for it, and a `not_enrolled` answer that meets a queued enrollment is sent again
/// after it — never a dead letter.
@Suite(.timeLimit(.minutes(1))) struct WriteDependencyTests {
    static let course = OfflineHarness.courseID
    static let enrollPath = "/v1/courses/\(OfflineHarness.courseID)/enrollment"

    /// Answers progress 403 `not_enrolled` until the enrollment was answered, as the server does.
    static func progressNeedsEnrollment(_ enrolled: Locked<Bool>) -> Routes.Handler {
        { _ in
            enrolled.withLock { $0 }
                ? .json(200, OfflineFixture.progress(watched: 90, version: 1))
                : .problem(403, code: "not_enrolled")
        }
    }

    @Test("progress queued after an enrollment of its course is sent after the enrollment is answered")
    func progressWaitsForItsEnrollment() async throws {
        // Given an enrollment and then progress in the same course, drained side by side, and a
        // server slow to enroll (progress sent alongside would arrive first)
        let harness = try await OfflineHarness(parallelResources: 16)
        let enrolled = Locked(false)
        harness.routes.on(.post, Self.enrollPath) { _ in
            try await Task.sleep(for: .milliseconds(100))
            enrolled.withLock { $0 = true }
            return .json(200, OfflineFixture.enrollment(courseID: Self.course))
        }
        harness.routes.on(.put, OfflineHarness.progressPath, handler: Self.progressNeedsEnrollment(enrolled))
        try await harness.enrollment.enroll(courseID: Self.course)
        _ = try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)

        // When it drains
        let report = await harness.engine.syncNow()

        // Then both landed, the progress once and after the enrollment
        #expect(report.sent == 2)
        #expect(report.deadLettered == 0)
        #expect(try await harness.outbox.deadLetters().isEmpty)
        #expect(harness.requests(.put, OfflineHarness.progressPath).count == 1)
        let paths = harness.transport.requests.map(\.url.path).filter { $0 != "/v1/sync/changes" }
        #expect(paths == [Self.enrollPath, OfflineHarness.progressPath])
    }

    @Test("a not_enrolled answer while the course's enrollment is queued waits for it, then is sent again")
    func notEnrolledWhileEnrollmentQueuedIsRetriedAfterIt() async throws {
        // Given progress already on its way when the learner enrolls in the course
        let harness = try await OfflineHarness(parallelResources: 16)
        let enrolled = Locked(false)
        harness.routes.on(.post, Self.enrollPath) { _ in
            enrolled.withLock { $0 = true }
            return .json(200, OfflineFixture.enrollment(courseID: Self.course))
        }
        let answer = Self.progressNeedsEnrollment(enrolled)
        let enrolling = Locked(true)
        harness.routes.on(.put, OfflineHarness.progressPath) { request in
            if enrolling.withLock({ first in defer { first = false }; return first }) {
                try await harness.enrollment.enroll(courseID: Self.course)
            }
            return try await answer(request)
        }
        _ = try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)

        // When it drains
        let report = await harness.engine.syncNow()

        // Then the refused progress waited for the enrollment and was sent again with its key
        #expect(report.deadLettered == 0)
        #expect(report.sent == 2)
        #expect(try await harness.outbox.deadLetters().isEmpty)
        #expect(try await harness.outbox.pending().isEmpty)
        let paths = harness.transport.requests.map(\.url.path).filter { $0 != "/v1/sync/changes" }
        #expect(paths == [OfflineHarness.progressPath, Self.enrollPath, OfflineHarness.progressPath])
        let keys = harness.requests(.put, OfflineHarness.progressPath).map { $0.headers["Idempotency-Key"] }
        #expect(Set(keys).count == 1)
    }

    @Test("not_enrolled with no enrollment queued is a dead letter with the server's reason")
    func notEnrolledWithoutEnrollmentIsRefused() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.put, OfflineHarness.progressPath, .response(.problem(403, code: "not_enrolled")))
        _ = try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)

        let report = await harness.engine.syncNow()

        #expect(report.deadLettered == 1)
        #expect(try await harness.outbox.deadLetters().map(\.reason) == ["not_enrolled"])
    }
}
