import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Version conflicts met while draining, settled by the ``ConflictPolicy`` or by the app.
@Suite(.timeLimit(.minutes(2))) struct SyncEngineConflictTests {
    static let course = OfflineHarness.courseID
    static let path = OfflineHarness.progressPath
    /// The server's record after another device wrote: watched 300 s, version 2.
    static var server: [String: Any] { OfflineFixture.progress(watched: 300, version: 2) }

    /// A harness with lesson-1 cached at version 1 (watched 60 s) and a local write of 120 s,
    /// completed, queued on top of it; the server answers the first PUT with a conflict.
    private func makeHarness(progress strategy: ConflictStrategy, then answers: StubOutcome...) async throws -> OfflineHarness {
        let harness = try await OfflineHarness(policy: ConflictPolicy([.progress: strategy]))
        try await harness.seedProgress(OfflineFixture.progress(watched: 60, version: 1))
        let outcomes = [OfflineFixture.versionConflict(current: Self.server, version: 2)] + answers
        harness.routes.on(.put, Self.path, handler: Self.script(outcomes))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 120, completed: true)
        return harness
    }

    private static func script(_ outcomes: [StubOutcome]) -> Routes.Handler {
        let remaining = Locked(outcomes)
        return { _ in try remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }.resolve() }
    }

    @Test("merge resends the merged body on the server's version")
    func mergeResends() async throws {
        let harness = try await makeHarness(
            progress: .merge, then: .response(.json(200, OfflineFixture.progress(watched: 300, completed: true, version: 3))))

        let report = await harness.engine.syncNow()

        #expect(report.sent == 1)
        let bodies = harness.requests(.put, Self.path).compactMap(\.jsonBody)
        try #require(bodies.count == 2)
        // Watched: both changed, the larger wins; completed: only this device changed it.
        #expect(bodies[1]["watched_seconds"] as? Int == 300)
        #expect(bodies[1]["completed"] as? Bool == true)
        #expect(bodies[1]["version"] as? Int == 2)
        #expect(try await harness.entity(.progress, "course-1/lesson-1")?.version == 3)
    }

    @Test("the merged resend reuses the item's Idempotency-Key")
    func resendKeepsTheKey() async throws {
        let harness = try await makeHarness(
            progress: .merge, then: .response(.json(200, OfflineFixture.progress(watched: 300, completed: true, version: 3))))
        let key = try #require(try await harness.outbox.pending().first?.idempotencyKey)

        await harness.engine.syncNow()

        #expect(harness.requests(.put, Self.path).map { $0.headers["Idempotency-Key"] } == [key, key])
    }

    @Test("server wins drops the local write and keeps the server's state")
    func serverWinsAccepts() async throws {
        let harness = try await makeHarness(progress: .serverWins)

        let report = await harness.engine.syncNow()

        #expect(report.sent == 1)
        #expect(harness.requests(.put, Self.path).count == 1)
        #expect(try await harness.outbox.pending().isEmpty)
        let local = try #require(try await harness.progress.lessons(courseID: Self.course).value.first)
        #expect(local.watchedSeconds == 300)
        #expect(local.version == 2)
        #expect(!local.completed)
    }

    @Test("client wins sends the local write again on the server's version")
    func clientWinsResends() async throws {
        let harness = try await makeHarness(
            progress: .clientWins, then: .response(.json(200, OfflineFixture.progress(watched: 120, completed: true, version: 3))))

        await harness.engine.syncNow()

        let resent = try #require(harness.requests(.put, Self.path).last?.jsonBody)
        #expect(resent["watched_seconds"] as? Int == 120)
        #expect(resent["completed"] as? Bool == true)
        #expect(resent["version"] as? Int == 2)
    }

    @Test("manual parks the conflict with both sides and nothing is resent")
    func manualParks() async throws {
        let harness = try await makeHarness(progress: .manual)
        let item = try #require(try await harness.outbox.pending().first)

        let report = await harness.engine.syncNow()

        #expect(report.conflictsParked == 1)
        #expect(harness.requests(.put, Self.path).count == 1)
        #expect(try await harness.outbox.pending().isEmpty)
        let conflict = try #require(try await harness.outbox.conflicts().first)
        #expect(conflict.body == item.body)
        #expect(conflict.baseVersion == 1)
        #expect(conflict.serverVersion == 2)
        #expect(OfflineFixture.object(conflict.serverJson)["watched_seconds"] as? Int == 300)
        #expect(conflict.idempotencyKey == item.idempotencyKey)
        #expect(harness.engine.status.conflictCount == 1)
    }

    @Test("keep mine queues the local write on the server's version with its key")
    func keepMine() async throws {
        let harness = try await makeHarness(
            progress: .manual, then: .response(.json(200, OfflineFixture.progress(watched: 120, completed: true, version: 3))))
        await harness.engine.syncNow()
        let conflict = try #require(try await harness.outbox.conflicts().first)

        try await harness.outbox.resolveConflict(id: conflict.id, choice: .keepMine)

        #expect(try await harness.outbox.conflicts().isEmpty)
        let item = try #require(try await harness.outbox.pending().first)
        #expect(item.body == conflict.body)
        #expect(item.baseVersion == 2)
        #expect(item.idempotencyKey == conflict.idempotencyKey)
        await harness.engine.syncNow()
        let resent = try #require(harness.requests(.put, Self.path).last?.jsonBody)
        #expect(resent["watched_seconds"] as? Int == 120)
        #expect(resent["version"] as? Int == 2)
        #expect(try await harness.outbox.pending().isEmpty)
    }

    @Test("keep the server's drops the local write and stores the server's state")
    func keepServer() async throws {
        let harness = try await makeHarness(progress: .manual)
        await harness.engine.syncNow()
        let conflict = try #require(try await harness.outbox.conflicts().first)

        try await harness.outbox.resolveConflict(id: conflict.id, choice: .keepServer)

        #expect(try await harness.outbox.conflicts().isEmpty)
        #expect(try await harness.outbox.pending().isEmpty)
        let local = try await harness.progress.lessons(courseID: Self.course)
        #expect(!local.hasPendingWrites)
        #expect(local.value.first?.watchedSeconds == 300)
        #expect(local.value.first?.version == 2)
    }

    @Test("a custom body is sent on the server's version")
    func custom() async throws {
        let harness = try await makeHarness(
            progress: .manual, then: .response(.json(200, OfflineFixture.progress(watched: 200, completed: true, version: 3))))
        await harness.engine.syncNow()
        let conflict = try #require(try await harness.outbox.conflicts().first)
        let body = OfflineFixture.data(["lesson_id": "lesson-1", "watched_seconds": 200, "completed": true])

        try await harness.outbox.resolveConflict(id: conflict.id, choice: .custom(body))

        let item = try #require(try await harness.outbox.pending().first)
        #expect(item.body == body)
        #expect(item.baseVersion == 2)
        await harness.engine.syncNow()
        let sent = try #require(harness.requests(.put, Self.path).last?.jsonBody)
        #expect(sent["watched_seconds"] as? Int == 200)
        #expect(sent["version"] as? Int == 2)
    }

    @Test("a first progress write that meets another device's record (428) is merged with it")
    func firstWriteMeetsExistingRecord() async throws {
        // Given a first write of a lesson this device has no record of
        let harness = try await OfflineHarness()
        harness.routes.on(
            .put, Self.path, .response(.problem(428, code: "precondition_required")),
            .response(.json(200, OfflineFixture.progress(lessonID: "lesson-2", watched: 500, completed: true, version: 5))))
        let existing = OfflineFixture.progress(lessonID: "lesson-2", watched: 500, version: 4)
        harness.routes.on(.get, Self.path, .response(.json(200, [
            "course_id": Self.course, "user_id": OfflineHarness.userID, "lessons": [existing], "completed_lessons": 0,
            "total_lessons": 3, "percent": 0,
        ])))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-2", watchedSeconds: 90, completed: true)

        // When it is sent
        let report = await harness.engine.syncNow()

        // Then it is merged by meaning with the record found and sent on its version
        #expect(report.sent == 1)
        let resent = try #require(harness.requests(.put, Self.path).last?.jsonBody)
        #expect(resent["watched_seconds"] as? Int == 500)
        #expect(resent["completed"] as? Bool == true)
        #expect(resent["version"] as? Int == 4)
    }
}
