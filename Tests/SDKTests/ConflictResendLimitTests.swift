import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Conflict resends are bounded: a write that meets a newer version again and again, or a
/// conflict without the server's version, is parked for the user instead of resent forever.
@Suite(.timeLimit(.minutes(1))) struct ConflictResendLimitTests {
    @Test("a write that keeps meeting a conflict is resent a bounded number of times, then parked")
    func endlessConflictIsParked() async throws {
        // Given a server that answers every progress write with a newer version (merge policy, and
        // the local value is larger, so every merge resends)
        let harness = try await OfflineHarness()
        harness.routes.on(
            .put, OfflineHarness.progressPath,
            OfflineFixture.versionConflict(current: OfflineFixture.progress(watched: 300, version: 2), version: 2))
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 600)

        // When it drains
        let report = await harness.engine.syncNow()

        // Then the drain ended: the write was sent, resent up to the limit, then parked
        #expect(report.conflictsParked == 1)
        #expect(harness.requests(.put, OfflineHarness.progressPath).count == 1 + OutboxDecision.conflictResendLimit)
        #expect(try await harness.outbox.pending().isEmpty)
        #expect(try await harness.outbox.conflicts().count == 1)
    }

    @Test("a conflict answer without the server's version is parked, not resent on version 0")
    func conflictWithoutVersionIsParked() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.put, OfflineHarness.progressPath, .response(.problem(409, code: "version_conflict")))
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 60)

        let report = await harness.engine.syncNow()

        #expect(report.conflictsParked == 1)
        #expect(harness.requests(.put, OfflineHarness.progressPath).count == 1)
        #expect(try await harness.outbox.conflicts().first?.serverVersion == nil)
    }

    @Test("a progress merge whose server record cannot be fetched is retried later with backoff")
    func unavailableProgressIsRescheduled() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.put, OfflineHarness.progressPath, .response(.problem(428, code: "precondition_required")))
        harness.routes.on(.get, OfflineHarness.progressPath, .response(.problem(503, code: "unavailable")))
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 60)

        let report = await harness.engine.syncNow()

        #expect(report.remaining == 1)
        let item = try #require(try await harness.outbox.pending().first)
        #expect(item.nextAttemptAt == harness.environment.now.addingTimeInterval(2))
        #expect(item.lastError == "progress unavailable")
    }
}
