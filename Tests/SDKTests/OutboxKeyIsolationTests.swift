import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The store reads each resource by its exact key, and a row it cannot read is reported, never
/// taken for a finished sync.
@Suite(.timeLimit(.minutes(1))) struct OutboxKeyIsolationTests {
    @Test("a course's progress shows only its own queued writes, not those of a course whose id differs in case")
    func progressOfOneCourseOnly() async throws {
        // Given progress queued in two courses whose ids differ only in letter case (SQLite's LIKE
        // ignores ASCII case)
        let harness = try await OfflineHarness()
        try await harness.progress.record(courseID: "course-a", lessonID: "lesson-1", watchedSeconds: 30)
        try await harness.progress.record(courseID: "COURSE-A", lessonID: "lesson-2", watchedSeconds: 60)

        // When each course's progress is read
        let lower = try await harness.progress.lessons(courseID: "course-a")
        let upper = try await harness.progress.lessons(courseID: "COURSE-A")

        // Then each shows its own lesson only
        #expect(lower.value.map(\.lessonId) == ["lesson-1"])
        #expect(upper.value.map(\.lessonId) == ["lesson-2"])
    }

    @Test("an outbox row the SDK cannot read ends the drain with a store error instead of a sync")
    func unreadableRowIsReported() async throws {
        // Given a row naming a resource this SDK does not know (written by a newer version)
        let harness = try await OfflineHarness()
        try await harness.store.writer.write { db in
            try db.execute(sql: """
                INSERT INTO queued_writes (resource, operation, method, path, idempotency_key, created_at, attempts)
                VALUES ('lesson/l-1', 'update', 'PATCH', '/v1/courses/c/lessons/l-1', 'k-1', ?, 0)
                """, arguments: [harness.environment.now])
        }

        // When the app syncs
        let report = await harness.engine.syncNow()

        // Then nothing was sent, the failure is the store's, and no sync date is claimed
        #expect(report.sent == 0)
        #expect(report.remaining == 1)
        #expect(harness.engine.status.error == .store)
        #expect(harness.engine.status.lastSyncAt == nil)
        #expect(harness.transport.requests.isEmpty)
    }
}
