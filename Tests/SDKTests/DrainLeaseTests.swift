import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// One drainer per store, across processes: a drain holds a lease in the store itself, so a
/// second process (an app extension, another `edugo sync now`) never sends the same items.
@Suite(.timeLimit(.minutes(1))) struct DrainLeaseTests {
    @Test("two engines on one store file drain at once: the second sends nothing, every write is sent once")
    func oneDrainerPerStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-lease-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given two processes' handles on one user's store, with two writes queued
        let first = try await OfflineHarness(
            store: OfflineStore.open(directory: directory, tenantID: Fixture.tenantID, userID: OfflineHarness.userID),
            parallelResources: 1)
        let second = try await OfflineHarness(
            store: OfflineStore.open(directory: directory, tenantID: Fixture.tenantID, userID: OfflineHarness.userID),
            parallelResources: 1)
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        first.routes.on(.patch, "/v1/users/me") { _ in
            arrival.yield()
            for await _ in release { break }
            return .json(200, OfflineFixture.user(firstName: "Eve", version: 2))
        }
        let enrolled = StubOutcome.response(.json(200, OfflineFixture.enrollment(courseID: "course-2")))
        first.routes.on(.post, "/v1/courses/course-2/enrollment", enrolled)
        second.routes.on(.patch, "/v1/users/me", .response(.json(200, OfflineFixture.user(firstName: "Eve", version: 2))))
        second.routes.on(.post, "/v1/courses/course-2/enrollment", enrolled)
        _ = try await first.profile.update(firstName: "Eve")
        try await first.enrollment.enroll(courseID: "course-2")

        // When the first drains (its first request on the wire) and the second drains meanwhile
        let draining = Task { await first.engine.syncNow() }
        var arrivals = arrived.makeAsyncIterator()
        _ = await arrivals.next()
        let other = await second.engine.syncNow()
        releasing.yield()
        releasing.finish()
        let report = await draining.value

        // Then the second sent nothing, and the first sent each write once
        #expect(other.sent == 0)
        #expect(second.transport.requests.allSatisfy { $0.url.path == "/v1/sync/changes" }, "no write, only the pull")
        #expect(second.engine.status.error == .busy)
        #expect(report.sent == 2)
        #expect(first.requests(.patch, "/v1/users/me").count == 1)
        #expect(first.requests(.post, "/v1/courses/course-2/enrollment").count == 1)
        #expect(try await first.outbox.pending().isEmpty)

        // And once the first is done, the second may drain (nothing left)
        let after = await second.engine.syncNow()
        let counts: [Int] = [after.sent, after.deadLettered, after.conflictsParked, after.remaining]
        #expect(counts == [0, 0, 0, 0])
    }

    @Test("a drain whose lease another drainer took sends nothing more, even within one resource's queue")
    func leaseCheckedAtEveryClaim() async throws {
        let harness = try await OfflineHarness(parallelResources: 1)
        // Given two profile edits queued as two items (the first was attempted once, so the second
        // was not merged into it)
        _ = try await harness.profile.update(firstName: "Ana")
        try await harness.store.writer.write { db in try db.execute(sql: "UPDATE queued_writes SET attempts = 1") }
        _ = try await harness.profile.update(lastName: "Ruiz")
        #expect(try await harness.outbox.pending().count == 2)
        // And a server whose first answer is so slow that meanwhile the lease expired and another
        // process took it
        let store = harness.store
        harness.routes.on(.patch, "/v1/users/me") { _ in
            _ = try await store.writer.write { db in
                try OfflineStore.holdDrainLease(db, owner: "another-process", now: .distantFuture, until: .distantFuture)
            }
            return .json(200, OfflineFixture.user(firstName: "Ana", version: 2))
        }

        // When the drain goes on to the second item
        let report = await harness.engine.syncNow()

        // Then it was not claimed, let alone sent: the other process is the drainer now
        #expect(harness.requests(.patch, "/v1/users/me").count == 1)
        #expect(report.sent == 1)
        #expect(harness.engine.status.error == .busy)
        let left = try await harness.outbox.pending()
        #expect(left.count == 1)
        #expect(left.first?.attempts == 0)
    }
}
