import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The causes `ManyDevicesConvergenceTests` found (one learner on ten devices, lost answers, 503s),
/// each on its own: a watch time a device sends never takes back what another device recorded, a
/// late answer never replaces a newer pulled state, and a finished pull leaves no read stale.
@Suite(.timeLimit(.minutes(1))) struct ProgressConvergenceTests {
    static let course = OfflineHarness.courseID

    static func progress(_ watched: Int, version: Int, completed: Bool = false) -> [String: Any] {
        var object = PullTests.progress("l-1", watched: watched, version: version)
        object["completed"] = completed
        return object
    }

    static func pulled(_ object: [String: Any], cursor: String) -> StubOutcome {
        PullTests.page([PullTests.upsert("progress", "l-1", course: course, object)], cursor: cursor)
    }

    /// The body of the one queued write.
    static func queuedBody(_ harness: OfflineHarness) async throws -> [String: Any] {
        let pending = try await harness.engine.outbox.pending()
        try #require(pending.count == 1)
        return OfflineFixture.object(try #require(pending.first?.body))
    }

    /// A store whose lesson was at 10 s on version 1 when `watched` seconds were recorded and sent
    /// once without an answer: the write waits, attempted, for its next try.
    static func harnessWithUnansweredWrite(_ watched: Int) async throws -> OfflineHarness {
        let harness = try await OfflineHarness()
        try await harness.seedProgress(progress(10, version: 1))
        try await harness.progress.record(courseID: course, lessonID: "l-1", watchedSeconds: watched)
        harness.routes.on(.put, OfflineHarness.progressPath, .failure(.notConnectedToInternet))
        _ = await harness.engine.syncNow()
        try #require(try await harness.engine.outbox.pending().first?.attempts == 1)
        return harness
    }

    @Test("a write never sent, rebased on a pulled state that watched more, is sent with the larger watch time")
    func rebaseRaisesWatchTime() async throws {
        // Given a write of 300 s made on 10 s
        let harness = try await OfflineHarness()
        try await harness.seedProgress(Self.progress(10, version: 1))
        try await harness.progress.record(courseID: Self.course, lessonID: "l-1", watchedSeconds: 300)

        // When a pull brings another device's 900 s, completed
        harness.routes.on(.get, "/v1/sync/changes", Self.pulled(Self.progress(900, version: 2, completed: true), cursor: "c1"))
        #expect(await harness.engine.pull().error == nil)

        // Then the write goes out on version 2 without taking either back
        let body = try await Self.queuedBody(harness)
        #expect(body["watched_seconds"] as? Int == 900)
        #expect(try await harness.progress.lessons(courseID: Self.course).value.first?.watchedSeconds == 900)
        harness.routes.on(.put, OfflineHarness.progressPath, .response(.json(200, Self.progress(900, version: 2, completed: true))))
        harness.routes.on(.get, "/v1/sync/changes", PullTests.page([], cursor: "c2"))
        #expect(await harness.engine.syncNow().sent == 1)
        let sent = OfflineFixture.object(try #require(harness.requests(.put, OfflineHarness.progressPath).first?.body))
        #expect(sent["version"] as? Int == 2)
        #expect(sent["watched_seconds"] as? Int == 900)
    }

    @Test("a write of less than the cached state holds is raised to it: a watch time only grows, a completion stays")
    func recordRaisesOverBase() async throws {
        let harness = try await OfflineHarness()
        try await harness.seedProgress(Self.progress(900, version: 2, completed: true))

        try await harness.progress.record(courseID: Self.course, lessonID: "l-1", watchedSeconds: 300, completed: false)

        let body = try await Self.queuedBody(harness)
        #expect(body["watched_seconds"] as? Int == 900)
        #expect(body["completed"] as? Bool == true)
        let view = try await harness.progress.lessons(courseID: Self.course)
        #expect(view.value.first?.watchedSeconds == 900)
        #expect(view.value.first?.completed == true)
    }

    @Test("a smaller write joining an unsent larger one keeps the larger watch time")
    func coalescingKeepsLarger() async throws {
        let harness = try await OfflineHarness()
        try await harness.seedProgress(Self.progress(10, version: 1))

        try await harness.progress.record(courseID: Self.course, lessonID: "l-1", watchedSeconds: 900)
        try await harness.progress.record(courseID: Self.course, lessonID: "l-1", watchedSeconds: 300)

        #expect(try await Self.queuedBody(harness)["watched_seconds"] as? Int == 900)
    }

    @Test("a write recorded while a larger one waits after a failed attempt is raised to it, not only to the cached base")
    func recordRaisesOverAttemptedWrite() async throws {
        let harness = try await Self.harnessWithUnansweredWrite(900)

        try await harness.progress.record(courseID: Self.course, lessonID: "l-1", watchedSeconds: 300)

        let bodies = try await harness.engine.outbox.pending().map { OfflineFixture.object($0.body)["watched_seconds"] as? Int }
        #expect(bodies == [900, 900])
    }

    @Test("a write recorded after a pull brought more than a smaller write still waiting for its answer is raised to the pulled state")
    func recordRaisesOverPulledBaseDespiteStaleAttempt() async throws {
        // Given a write of 300 s made on 10 s, sent and unanswered (it will meet a newer version)
        let harness = try await Self.harnessWithUnansweredWrite(300)

        // and a pull bringing another device's 900 s on version 2 (the sent write keeps its body)
        harness.routes.on(.get, "/v1/sync/changes", Self.pulled(Self.progress(900, version: 2, completed: true), cursor: "c1"))
        #expect(await harness.engine.pull().error == nil)

        // Then the device shows 900, not the older write laid over it
        #expect(try await harness.progress.lessons(courseID: Self.course).value.first?.watchedSeconds == 900)

        // When the learner records 500 s
        try await harness.progress.record(courseID: Self.course, lessonID: "l-1", watchedSeconds: 500)

        // Then the new write, made on version 2, carries 900: laid over the base, the waiting 300
        // hid the 900 and 500 went out on the version that holds 900 (the server took it)
        let pending = try await harness.engine.outbox.pending()
        try #require(pending.count == 2)
        #expect(pending.last?.baseVersion == 2)
        #expect(OfflineFixture.object(try #require(pending.last?.body))["watched_seconds"] as? Int == 900)
        #expect(try await harness.progress.lessons(courseID: Self.course).value.first?.watchedSeconds == 900)
    }

    @Test("a delivered write raises the later unsent writes rebased on its answer")
    func deliveryRaisesLaterWrites() async throws {
        let harness = try await OfflineHarness()
        let resource = ResourceKey.progress(course: Self.course, lesson: "l-1")
        let first = try #require(try await harness.store.enqueue(
            PendingWrite(
                resource: resource, operation: .update, endpoint: .Courses.putProgress(Self.course),
                body: OfflineFixture.data(["lesson_id": "l-1", "watched_seconds": 900]), baseVersion: 1),
            key: "k-1", at: Date()))
        let now = harness.environment.now
        _ = try await harness.store.claim(first.id, owner: "drainer", now: now, leaseUntil: now.addingTimeInterval(60))
        _ = try await harness.store.enqueue(
            PendingWrite(
                resource: resource, operation: .update, endpoint: .Courses.putProgress(Self.course),
                body: OfflineFixture.data(["lesson_id": "l-1", "watched_seconds": 300]), baseVersion: 1),
            key: "k-2", at: Date())

        let answer = OfflineFixture.data(Self.progress(900, version: 2))
        try await harness.store.settle(
            first, .delivered(answer: answer, droppingResponses: [], raising: ProgressResource.conflicts), at: now)

        let later = try #require(try await harness.engine.outbox.pending().first)
        #expect(later.baseVersion == 2)
        #expect(OfflineFixture.object(later.body)["watched_seconds"] as? Int == 900)
    }

    @Test("with clientWins the learner's smaller value is sent as recorded: only merge raises")
    func clientWinsSendsAsRecorded() async throws {
        let harness = try await OfflineHarness(policy: ConflictPolicy([.progress: .clientWins]))
        try await harness.seedProgress(Self.progress(900, version: 2))

        try await harness.progress.record(courseID: Self.course, lessonID: "l-1", watchedSeconds: 300)

        #expect(try await Self.queuedBody(harness)["watched_seconds"] as? Int == 300)
    }

    @Test("an answer older than the cached state (a replay after a lost answer, landing after a pull) does not replace it")
    func lateAnswerKeepsNewerState() async throws {
        // Given version 3 pulled from another device
        let harness = try await OfflineHarness()
        try await harness.seedProgress(Self.progress(900, version: 3, completed: true))

        // When this device's write is answered with the version 2 it made earlier
        let answer = OfflineFixture.data(Self.progress(300, version: 2))
        let stored = try await harness.store.writer.write { db in
            try LocalCache.apply(db, resource: .progress(course: Self.course, lesson: "l-1"), operation: .update, json: answer, at: Date())
        }

        // Then the cache keeps version 3 (no later pull would bring it back: the cursor is past it)
        #expect(stored == 2)
        let cached = try #require(try await harness.entity(.progress, "\(Self.course)/l-1"))
        #expect(cached.version == 3)
        #expect(try await harness.progress.lessons(courseID: Self.course).value.first?.watchedSeconds == 900)

        // And the same or a later version still replaces it
        let newer = OfflineFixture.data(Self.progress(950, version: 4, completed: true))
        _ = try await harness.store.writer.write { db in
            try LocalCache.apply(db, resource: .progress(course: Self.course, lesson: "l-1"), operation: .update, json: newer, at: Date())
        }
        #expect(try await harness.entity(.progress, "\(Self.course)/l-1")?.version == 4)
    }

    @Test("a read refreshed while the server answered 503 is not stale once a later pull reached the end of the feed")
    func finishedPullClearsStaleReason() async throws {
        let harness = try await OfflineHarness()
        try await harness.seedProgress(Self.progress(10, version: 1))
        harness.routes.on(.get, "/v1/sync/changes", .response(.problem(503, code: "unavailable")))
        #expect(try await harness.engine.refresh(.progress(courseID: Self.course)) != nil)
        #expect(try await harness.progress.lessons(courseID: Self.course).staleReason != nil)

        harness.routes.on(.get, "/v1/sync/changes", PullTests.page([], cursor: "c1"))
        #expect(await harness.engine.syncNow().pullError == nil)

        #expect(try await harness.progress.lessons(courseID: Self.course).staleReason == nil)
    }
}
