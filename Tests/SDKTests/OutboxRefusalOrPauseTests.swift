import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Answers that are not the server refusing a write: they pause the drain or the item, and the
/// write stays in the outbox — never a dead letter.
@Suite(.timeLimit(.minutes(1))) struct OutboxRefusalOrPauseTests {
    static let enrollPath = "/v1/courses/course-2/enrollment"

    @Test("a 401 during a drain halts it: the write stays queued, no dead letter, nothing else is sent")
    func unauthorizedHalts() async throws {
        // Given two queued writes and a server that no longer accepts the session, refresh included
        let harness = try await OfflineHarness(parallelResources: 1)
        harness.routes.on(.post, Self.enrollPath, .response(.problem(401, code: "token_revoked")))
        harness.routes.on(.post, "/v1/auth/refresh", .response(.problem(401, code: "refresh_token_revoked")))
        harness.routes.on(.patch, "/v1/users/me", .response(.json(200, OfflineFixture.user(firstName: "Eve", version: 2))))
        try await harness.enrollment.enroll(courseID: "course-2")
        try await harness.profile.update(firstName: "Eve")

        // When it drains
        let report = await harness.engine.syncNow()

        // Then it stopped at the 401: nothing dead-lettered, both writes still queued
        #expect(report.deadLettered == 0)
        #expect(report.sent == 0)
        #expect(try await harness.outbox.deadLetters().isEmpty)
        #expect(try await harness.outbox.pending().map(\.resource) == [.enrollment(course: "course-2"), .profile])
        #expect(harness.requests(.patch, "/v1/users/me").isEmpty)
        #expect(harness.engine.status.lastError == "signed out")
    }

    @Test("409 idempotency_in_progress is retried later with the same key, never a dead letter")
    func idempotencyInProgressRetries() async throws {
        // Given a server still applying the key of an earlier, lost attempt
        let harness = try await OfflineHarness()
        harness.routes.on(
            .post, Self.enrollPath,
            .response(.problem(409, code: "idempotency_in_progress", headers: ["Retry-After": "1"])),
            .response(.json(200, OfflineFixture.enrollment(courseID: "course-2"), headers: ["Idempotent-Replayed": "true"])))
        try await harness.enrollment.enroll(courseID: "course-2")

        // When it drains the first time, then again once the retry is due
        let first = await harness.engine.syncNow()
        #expect(first.deadLettered == 0)
        #expect(try await harness.outbox.deadLetters().isEmpty)
        let queued = try #require(try await harness.outbox.pending().first)
        #expect(queued.nextAttemptAt == harness.environment.now.addingTimeInterval(1))
        harness.environment.advance(by: .seconds(1))
        let second = await harness.engine.syncNow()

        // Then the replay carried the same key and settled it
        #expect(second.sent == 1)
        let keys = harness.requests(.post, Self.enrollPath).map { $0.headers["Idempotency-Key"] }
        #expect(keys.count == 2)
        #expect(Set(keys).count == 1)
        #expect(try await harness.outbox.pending().isEmpty)
        #expect(try await harness.enrollment.enrolledCourseIDs().value == ["course-2"])
    }
}

/// A write is only ever sent with the token of the user whose store holds it.
@Suite(.timeLimit(.minutes(1))) struct OutboxUserFenceTests {
    @Test("when the session belongs to another user, the drain halts and sends nothing of this store's")
    func otherUsersTokenIsNeverUsed() async throws {
        // Given user-1's store with a queued write, while the signed-in session is user-b's
        let harness = try await OfflineHarness()
        harness.routes.on(.post, OutboxRefusalOrPauseTests.enrollPath, .response(.json(200, OfflineFixture.enrollment(courseID: "course-2"))))
        try await harness.enrollment.enroll(courseID: "course-2")
        let other = SessionTokens(
            accessToken: TestJWT.make(exp: harness.environment.now + .seconds(900)), refreshToken: "refresh-b",
            accessTokenExpiresAt: harness.environment.now + .seconds(900), userID: "user-b", tenantID: Fixture.tenantID)
        try await harness.client.session.signIn(other)

        // When it drains, and a read refresh runs
        let report = await harness.engine.syncNow()
        harness.routes.on(.get, "/v1/sync/changes", .response(.json(200, [
            "changes": [Any](), "cursor": "c1", "has_more": false, "base_continues": false,
        ])))
        await #expect(throws: NetworkError.unauthorized(code: "other_user")) { try await harness.engine.refresh(.courses) }

        // Then nothing went out with user-b's token, and the write waits for user-1
        #expect(report.sent == 0)
        #expect(report.deadLettered == 0)
        #expect(harness.transport.requests.filter { $0.url.path != "/v1/auth/refresh" }.isEmpty)
        #expect(try await harness.outbox.pending().map(\.resource) == [.enrollment(course: "course-2")])
        #expect(harness.engine.status.lastError == "signed out")
    }
}
