import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// A write the app sends again — a retried dead letter, a conflict settled with "keep mine" or a
/// custom body — goes back to its place in its resource's queue, before the newer writes, and no
/// later write is ever merged into it: its key was sent already.
@Suite(.timeLimit(.minutes(1))) struct RequeueOrderTests {
    static let mePath = "/v1/users/me"

    @Test("a retried dead letter replays before the newer writes of its resource, and nothing is merged into it")
    func retriedDeadLetterKeepsItsPlace() async throws {
        // Given a profile write the server refused, and a newer one queued since
        let harness = try await OfflineHarness()
        harness.routes.on(.patch, Self.mePath, .response(.problem(422, code: "validation_failed")))
        _ = try await harness.profile.update(firstName: "Ada")
        await harness.engine.syncNow()
        let letter = try #require(try await harness.outbox.deadLetters().first)
        _ = try await harness.profile.update(lastName: "Byron")
        let newer = try #require(try await harness.outbox.pending().first)

        // When the app retries the refused one, and the learner writes again
        try await harness.outbox.retryDeadLetter(id: letter.id)
        _ = try await harness.profile.update(lastName: "King")

        // Then the refused write goes first, untouched, and the new write joins the newer one
        let queue = try await harness.outbox.pending()
        #expect(queue.map(\.idempotencyKey) == [letter.idempotencyKey, newer.idempotencyKey])
        let first = try #require(queue.first)
        let second = try #require(queue.last)
        #expect(first.body == letter.body)
        #expect(first.attempts >= 1)
        #expect(OfflineFixture.object(second.body)["last_name"] as? String == "King")
    }

    @Test("a write made after a dead letter was retried is not merged into the retried body")
    func noCoalescingIntoARetriedDeadLetter() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.patch, Self.mePath, .response(.problem(422, code: "validation_failed")))
        _ = try await harness.profile.update(firstName: "Ada")
        await harness.engine.syncNow()
        let letter = try #require(try await harness.outbox.deadLetters().first)

        try await harness.outbox.retryDeadLetter(id: letter.id)
        _ = try await harness.profile.update(firstName: "Grace")

        let queue = try await harness.outbox.pending()
        try #require(queue.count == 2)
        #expect(queue.first?.body == letter.body)
        #expect(queue.first?.idempotencyKey == letter.idempotencyKey)
        #expect(queue.last?.idempotencyKey != letter.idempotencyKey)
    }

    @Test("keep mine puts the parked write back before the resource's newer writes")
    func keptConflictKeepsItsPlace() async throws {
        // Given a progress write parked as a conflict, and a newer write of the lesson queued since
        let harness = try await OfflineHarness(policy: ConflictPolicy([.progress: .manual]))
        harness.routes.on(
            .put, OfflineHarness.progressPath,
            OfflineFixture.versionConflict(current: OfflineFixture.progress(watched: 300, version: 2), version: 2))
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 60)
        await harness.engine.syncNow()
        let conflict = try #require(try await harness.outbox.conflicts().first)
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 90)
        let newer = try #require(try await harness.outbox.pending().first)

        // When the learner keeps their version
        try await harness.outbox.resolveConflict(id: conflict.id, choice: .keepMine)
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 120)

        // Then it replays first, unchanged, and the newest write joined the newer one
        let queue = try await harness.outbox.pending()
        #expect(queue.map(\.idempotencyKey) == [conflict.idempotencyKey, newer.idempotencyKey])
        #expect(queue.first?.body == conflict.body)
        #expect(OfflineFixture.object(queue.last?.body)["watched_seconds"] as? Int == 120)
    }
}
