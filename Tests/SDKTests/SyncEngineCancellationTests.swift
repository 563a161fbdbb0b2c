import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Cancelling the task running ``SyncEngine/run()`` stops its drain: the drain is part of that
/// task, not a task of its own that outlives it.
@Suite(.timeLimit(.minutes(1))) struct SyncEngineCancellationTests {
    @Test("cancelling run() stops an in-flight drain within one request: the other writes stay queued, unclaimed")
    func cancellingRunStopsTheDrain() async throws {
        // Given three writes to three resources, drained one resource at a time, and a server
        // that holds the first request until told to answer
        let harness = try await OfflineHarness(parallelResources: 1)
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        harness.routes.on(.patch, "/v1/users/me") { _ in
            arrival.yield()
            for await _ in release { break }
            return .json(200, OfflineFixture.user(firstName: "Eve", version: 2))
        }
        harness.routes.on(.post, "/v1/courses/course-2/enrollment", .response(.json(200, OfflineFixture.enrollment(courseID: "course-2"))))
        harness.routes.on(.put, OfflineHarness.progressPath, .response(.json(200, OfflineFixture.progress(watched: 90, version: 1))))
        _ = try await harness.profile.update(firstName: "Eve")
        try await harness.enrollment.enroll(courseID: "course-2")
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 90)

        // When run() has the first write on the wire and is cancelled, and only then the server answers
        let running = Task { await harness.engine.run() }
        var arrivals = arrived.makeAsyncIterator()
        _ = await arrivals.next()
        running.cancel()
        releasing.yield()
        releasing.finish()
        await running.value

        // Then nothing was sent after the request in flight, and the rest was never even claimed
        #expect(harness.transport.requests.map(\.url.path) == ["/v1/users/me"])
        let rest = try await harness.outbox.pending().filter { $0.resource != .profile }
        #expect(rest.map(\.resource) == [.enrollment(course: "course-2"), .progress(course: OfflineHarness.courseID, lesson: "lesson-1")])
        #expect(rest.allSatisfy { $0.attempts == 0 })
        // And the cancelled drain let go of the store: another engine on it drains the rest at once
        let next = SyncEngine(
            client: harness.client, store: harness.store, monitor: harness.monitor, cache: harness.cache,
            environment: harness.environment.sdk)
        let report = await next.syncNow()
        #expect(next.status.error == nil)
        #expect(report.sent == 2)
    }
}

/// What a cancelled drain reports.
@Suite(.timeLimit(.minutes(1))) struct CancelledDrainReportTests {
    @Test("a drain cancelled mid-way reports the writes it left queued")
    func cancelledDrainCountsWhatRemains() async throws {
        // Given three writes and a server holding the first request
        let harness = try await OfflineHarness(parallelResources: 1)
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        harness.routes.on(.patch, "/v1/users/me") { _ in
            arrival.yield()
            for await _ in release { break }
            return .json(200, OfflineFixture.user(firstName: "Eve", version: 2))
        }
        _ = try await harness.profile.update(firstName: "Eve")
        try await harness.enrollment.enroll(courseID: "course-2")
        _ = try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 90)

        // When the task running syncNow() is cancelled with the first write on the wire
        let syncing = Task { await harness.engine.syncNow() }
        var arrivals = arrived.makeAsyncIterator()
        _ = await arrivals.next()
        syncing.cancel()
        releasing.yield()
        releasing.finish()
        let report = await syncing.value

        // Then it reports the first as sent and the other two as remaining
        #expect(report.sent == 1)
        #expect(report.remaining == 2)
        #expect(try await harness.outbox.pending().count == 2)
        #expect(harness.engine.status.error == .cancelled)
    }
}
