import Foundation
import GRDB
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// A settlement moves a write from in flight to its next state in one transaction: when any part
/// of it fails, the write is still in flight exactly as it was (sent again with its key by the next
/// drain), never half settled, never gone.
@Suite(.timeLimit(.minutes(1))) struct OutboxSettleTests {
    static let drainer = "drainer-1"

    /// A harness with lesson-1's progress cached at version 1 and a write to it queued.
    private func harnessWithWrite() async throws -> OfflineHarness {
        let harness = try await OfflineHarness()
        try await harness.seedProgress(OfflineFixture.progress(watched: 60, version: 1))
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 120)
        return harness
    }

    /// Claims write `id` for an attempt, as a drain does before it sends.
    private func claim(_ id: Int64, in harness: OfflineHarness) async throws -> OutboxItem {
        let now = harness.environment.now
        let claim = try await harness.store.claim(id, owner: Self.drainer, now: now, leaseUntil: now.addingTimeInterval(120))
        guard case .claimed(let item) = claim else { throw NotClaimed(claim: claim) }
        return item
    }

    private struct NotClaimed: Error {
        let claim: OfflineStore.Claim
    }

    private func row(_ id: Int64, in harness: OfflineHarness) async throws -> QueuedWrite? {
        try await harness.store.writer.read { db in try QueuedWrite.fetchOne(db, key: id) }
    }

    /// Makes every statement `trigger` names fail, as a full disk or an I/O error would.
    private func injectFailure(_ harness: OfflineHarness, _ trigger: String) async throws {
        try await harness.store.writer.write { db in
            try db.execute(sql: "CREATE TRIGGER injected_failure \(trigger) BEGIN SELECT RAISE(ABORT, 'injected'); END")
        }
    }

    private func removeFailure(_ harness: OfflineHarness) async throws {
        try await harness.store.writer.write { db in try db.execute(sql: "DROP TRIGGER injected_failure") }
    }

    static let settlements: [OutboxSettlement] = [
        .conflict(serverVersion: 2, serverJson: OfflineFixture.data(OfflineFixture.progress(watched: 300, version: 2))),
        .deadLetter(reason: "not_found", status: 404, problem: Data(#"{"code":"not_found"}"#.utf8), unlessCreationQueuedFor: nil),
        .retry(at: Date(timeIntervalSince1970: 1_800_000_300), error: "HTTP 503"),
        .resend(body: Data(#"{"watched_seconds":300}"#.utf8), version: 2, serverJson: nil),
    ]

    @Test("a settlement that fails when it changes the state leaves the write in flight as it was", arguments: OutboxSettleTests.settlements)
    func failedSettlementChangesNothing(_ settlement: OutboxSettlement) async throws {
        // Given a write claimed for an attempt, and a store that fails whatever moves it out of flight
        let harness = try await harnessWithWrite()
        let queued = try #require(try await harness.outbox.pending().first)
        let item = try await claim(queued.id, in: harness)
        let claimed = try #require(try await row(item.id, in: harness))
        #expect(claimed.state == .inFlight)
        try await injectFailure(harness, "BEFORE UPDATE OF state ON queued_writes WHEN NEW.state <> 'in_flight'")

        // When the attempt is settled
        await #expect(throws: DatabaseError.self) {
            try await harness.store.settle(item, settlement, at: harness.environment.now)
        }

        // Then nothing of the settlement is stored: the write is in flight, every field as it was
        #expect(try await row(item.id, in: harness) == claimed)
        #expect(try await harness.outbox.deadLetters().isEmpty)
        #expect(try await harness.outbox.conflicts().isEmpty)

        // And once the store works again the same settlement moves it, in one step
        try await removeFailure(harness)
        let state = try await harness.store.settle(item, settlement, at: harness.environment.now)
        #expect(state != .inFlight)
        #expect(try await row(item.id, in: harness)?.state == state)
    }

    @Test("a delivery whose settlement fails keeps the write, the cached state and the later write's base as they were")
    func failedDeliveryChangesNothing() async throws {
        // Given a write claimed for an attempt, a later write to the same lesson queued behind it,
        // and a store that fails when the later write is rebased (the delivery's last step)
        let harness = try await harnessWithWrite()
        let queued = try #require(try await harness.outbox.pending().first)
        let item = try await claim(queued.id, in: harness)
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 150)
        let pending = try await harness.outbox.pending()
        try #require(pending.count == 2)
        let cached = try await harness.entity(.progress, "course-1/lesson-1")
        try await injectFailure(harness, "BEFORE UPDATE OF base_version ON queued_writes")
        let answer = OfflineFixture.data(OfflineFixture.progress(watched: 120, version: 2))

        // When the server's answer is settled
        await #expect(throws: DatabaseError.self) {
            try await harness.store.settle(item, .delivered(answer: answer, droppingResponses: []), at: harness.environment.now)
        }

        // Then the write is still in flight, the cache still holds version 1, the later write is based on it
        #expect(try await row(item.id, in: harness)?.state == .inFlight)
        #expect(try await harness.entity(.progress, "course-1/lesson-1") == cached)
        #expect(try await harness.outbox.pending().map(\.baseVersion) == [1, 1])

        // And once the store works again the delivery completes in one step
        try await removeFailure(harness)
        try await harness.store.settle(item, .delivered(answer: answer, droppingResponses: []), at: harness.environment.now)
        #expect(try await row(item.id, in: harness) == nil)
        #expect(try await harness.entity(.progress, "course-1/lesson-1")?.version == 2)
        #expect(try await harness.outbox.pending().map(\.baseVersion) == [2])
    }

    @Test("a settlement of a write another drain settled first leaves it as that drain left it")
    func settledWriteStaysSettled() async throws {
        // Given a write claimed and parked as a conflict (by a drain whose lease another one took over)
        let harness = try await harnessWithWrite()
        let queued = try #require(try await harness.outbox.pending().first)
        let item = try await claim(queued.id, in: harness)
        try await harness.store.settle(item, .conflict(serverVersion: 2, serverJson: nil), at: harness.environment.now)

        // When a late answer of the same attempt asks for a retry
        let state = try await harness.store.settle(item, .retry(at: harness.environment.now, error: "HTTP 503"), at: harness.environment.now)

        // Then the write stays parked for the user
        #expect(state == .conflict)
        #expect(try await harness.outbox.conflicts().map(\.id) == [item.id])
        #expect(try await harness.outbox.pending().isEmpty)
    }
}
