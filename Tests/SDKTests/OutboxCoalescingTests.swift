import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// How ``Outbox/enqueue(_:)`` folds writes to one resource together while they were never sent.
@Suite(.timeLimit(.minutes(2))) struct OutboxCoalescingTests {
    let store: OfflineStore
    let outbox: Outbox

    init() throws {
        store = try OfflineStore.inMemory(tenantID: Fixture.tenantID, userID: "user-1")
        // Keys are numbered so a test can tell which enqueue an item's key came from.
        let serial = Locked(0)
        outbox = Outbox(
            store: store, now: { Date(timeIntervalSince1970: 1_800_000_000) },
            makeKey: { "key-\(serial.withLock { value -> Int in value += 1; return value })" })
    }

    /// Marks every queued item as sent once (as the processor does before sending).
    private func markAttempted() async throws {
        try await store.writer.write { db in try db.execute(sql: "UPDATE queued_writes SET attempts = 1") }
    }

    @Test("two updates to one resource become one item with the merged body and the first base version and key")
    func updatesMerge() async throws {
        // Given an update based on version 3
        let base = OfflineFixture.progress(watched: 10, version: 3)
        try await outbox.enqueue(OfflineFixture.progressWrite(["watched_seconds": 60], baseVersion: 3, baseJson: base))
        // When a second update to the same lesson, based on a later version, is enqueued
        try await outbox.enqueue(OfflineFixture.progressWrite(["completed": true], baseVersion: 4))

        // Then one item carries both changes, the first write's base and the first key
        let items = try await outbox.pending()
        #expect(items.count == 1)
        let item = try #require(items.first)
        let body = OfflineFixture.object(item.body)
        #expect(body["watched_seconds"] as? Int == 60)
        #expect(body["completed"] as? Bool == true)
        #expect(body["lesson_id"] as? String == "lesson-1")
        #expect(item.baseVersion == 3)
        #expect(OfflineFixture.object(item.baseJson)["watched_seconds"] as? Int == 10)
        #expect(item.idempotencyKey == "key-1")
        #expect(item.operation == .update)
    }

    @Test("a later value of the same field replaces the earlier one")
    func laterValueWins() async throws {
        try await outbox.enqueue(OfflineFixture.progressWrite(["watched_seconds": 60], baseVersion: 1))
        try await outbox.enqueue(OfflineFixture.progressWrite(["watched_seconds": 90], baseVersion: 1))

        let item = try #require(try await outbox.pending().first)
        #expect(OfflineFixture.object(item.body)["watched_seconds"] as? Int == 90)
    }

    /// The queue the lesson writes below go to. The SDK queues no lesson writes of its own, and
    /// coalescing looks only at the key and the operations, so any key stands in for one.
    static let lessonKey = ResourceKey.enrollment(course: "lesson-queue")

    @Test("a create followed by an update stays one create with both bodies")
    func createThenUpdateStaysCreate() async throws {
        // Given a creation that was never sent
        let create = PendingWrite(
            resource: Self.lessonKey, operation: .create, endpoint: .Courses.createLesson("course-1"),
            body: OfflineFixture.data(["title": "Intro"]), baseVersion: nil, baseJson: nil)
        try await outbox.enqueue(create)
        // When the new thing is edited
        let update = PendingWrite(
            resource: Self.lessonKey, operation: .update, endpoint: .Courses.updateLesson("course-1", "new-1"),
            body: OfflineFixture.data(["content": "Hola"]), baseVersion: 1, baseJson: nil)
        try await outbox.enqueue(update)

        // Then one POST creates it with both fields
        let items = try await outbox.pending()
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.operation == .create)
        #expect(item.method == "POST")
        #expect(item.path == "/v1/courses/course-1/lessons")
        let body = OfflineFixture.object(item.body)
        #expect(body.count == 2)
        #expect(body["title"] as? String == "Intro")
        #expect(body["content"] as? String == "Hola")
        #expect(item.baseVersion == nil)
        #expect(item.idempotencyKey == "key-1")
    }

    @Test("a create followed by a delete leaves nothing to send")
    func createThenDeleteCancels() async throws {
        try await outbox.enqueue(OfflineFixture.enroll("course-9"))

        let result = try await outbox.enqueue(OfflineFixture.unenroll("course-9"))

        #expect(result == nil)
        #expect(try await outbox.pending().isEmpty)
        #expect(try await !outbox.hasPending(resource: .enrollment(course: "course-9")))
    }

    @Test("an update followed by a delete becomes one delete with the update's key and base")
    func updateThenDeleteBecomesDelete() async throws {
        // Given an unsent update of a lesson
        let update = PendingWrite(
            resource: Self.lessonKey, operation: .update, endpoint: .Courses.updateLesson("course-1", "l-1"),
            body: OfflineFixture.data(["title": "Renamed"]), baseVersion: 5, baseJson: nil)
        try await outbox.enqueue(update)
        // When the lesson is deleted
        let delete = PendingWrite(
            resource: Self.lessonKey, operation: .delete, endpoint: .Courses.deleteLesson("course-1", "l-1"), body: nil,
            baseVersion: 5, baseJson: nil)
        try await outbox.enqueue(delete)

        // Then only the delete is left
        let items = try await outbox.pending()
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.operation == .delete)
        #expect(item.method == "DELETE")
        #expect(item.path == "/v1/courses/course-1/lessons/l-1")
        #expect(item.body == nil)
        #expect(item.baseVersion == 5)
        #expect(item.idempotencyKey == "key-1")
    }

    @Test("an item that was already attempted is never rewritten: the next write is appended")
    func attemptedItemIsNotCoalesced() async throws {
        // Given an update that was sent once (the server may hold its key)
        try await outbox.enqueue(OfflineFixture.progressWrite(["watched_seconds": 60], baseVersion: 1))
        try await markAttempted()
        // When the lesson is written again
        try await outbox.enqueue(OfflineFixture.progressWrite(["watched_seconds": 90], baseVersion: 1))

        // Then the attempted item is untouched and a new item with a new key follows it
        let items = try await outbox.pending()
        try #require(items.count == 2)
        #expect(OfflineFixture.object(items[0].body)["watched_seconds"] as? Int == 60)
        #expect(items[0].attempts == 1)
        #expect(items[0].idempotencyKey == "key-1")
        #expect(OfflineFixture.object(items[1].body)["watched_seconds"] as? Int == 90)
        #expect(items[1].attempts == 0)
        #expect(items[1].idempotencyKey == "key-2")
    }

    @Test("a delete after an attempted create is queued rather than cancelling the create")
    func attemptedCreateIsNotCancelled() async throws {
        try await outbox.enqueue(OfflineFixture.enroll("course-9"))
        try await markAttempted()

        try await outbox.enqueue(OfflineFixture.unenroll("course-9"))

        #expect(try await outbox.pending().map(\.operation) == [.create, .delete])
    }

    @Test("writes to different resources never coalesce")
    func differentResourcesStayApart() async throws {
        try await outbox.enqueue(OfflineFixture.progressWrite(lessonID: "lesson-1", ["watched_seconds": 60]))
        try await outbox.enqueue(OfflineFixture.progressWrite(lessonID: "lesson-2", ["watched_seconds": 60]))
        try await outbox.enqueue(OfflineFixture.enroll("course-1"))
        try await outbox.enqueue(OfflineFixture.unenroll("course-2"))

        let items = try await outbox.pending()
        #expect(items.map(\.resource) == [
            .progress(course: "course-1", lesson: "lesson-1"), .progress(course: "course-1", lesson: "lesson-2"), .enrollment(course: "course-1"), .enrollment(course: "course-2"),
        ])
    }

    @Test("every enqueued item gets its own Idempotency-Key at enqueue time")
    func uniqueKeys() async throws {
        // Given the outbox's own key generator
        let outbox = Outbox(store: store)
        // When writes to several resources are enqueued
        for lesson in 1...5 {
            try await outbox.enqueue(OfflineFixture.progressWrite(lessonID: "lesson-\(lesson)", ["watched_seconds": lesson]))
        }
        try await outbox.enqueue(OfflineFixture.enroll("course-3"))

        // Then each already has a key, and no two share one
        let keys = try await outbox.pending().map(\.idempotencyKey)
        #expect(keys.count == 6)
        #expect(Set(keys).count == 6)
        #expect(keys.allSatisfy { UUID(uuidString: $0) != nil })
    }
}

/// A write made while an item is on its first attempt is never merged into the body on the wire.
@Suite(.timeLimit(.minutes(1))) struct InFlightCoalescingTests {
    @Test("a write made during an item's first attempt is queued after it, not merged into the sent body")
    func writeDuringTheFirstAttemptIsAppended() async throws {
        // Given a progress write, and a learner who records the lesson again while it is on the wire
        let harness = try await OfflineHarness()
        let calls = Locked(0)
        harness.routes.on(.put, OfflineHarness.progressPath) { _ in
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            if call == 1 {
                _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 90)
                return .json(200, OfflineFixture.progress(watched: 60, version: 1))
            }
            return .json(200, OfflineFixture.progress(watched: 90, version: 2))
        }
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 60)

        // When it drains
        let report = await harness.engine.syncNow()

        // Then both writes went, in order, each with its own key and body: the second was not lost
        #expect(report.sent == 2)
        let puts = harness.requests(.put, OfflineHarness.progressPath)
        try #require(puts.count == 2)
        #expect(puts.map { OfflineFixture.object($0.body)["watched_seconds"] as? Int } == [60, 90])
        #expect(Set(puts.map { $0.headers["Idempotency-Key"] }).count == 2)
        #expect(try await harness.outbox.pending().isEmpty)
    }
}
