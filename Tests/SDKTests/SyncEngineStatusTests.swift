import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The ``SyncStatus`` the engine publishes on ``SyncEngine/statusUpdates()``.
@Suite(.timeLimit(.minutes(2))) struct SyncEngineStatusTests {
    static let course = OfflineHarness.courseID
    static let path = OfflineHarness.progressPath

    @Test("a new subscriber first receives the current status")
    func subscriberStartsWithCurrent() async throws {
        let harness = try await OfflineHarness()
        try await harness.outbox.enqueue(OfflineFixture.enroll("course-2"))
        await harness.engine.refreshStatus()

        let first = await collect(harness.engine.statusUpdates()) { $0.count == 1 }.first

        #expect(first == harness.engine.status)
        #expect(first?.pendingCount == 1)
    }

    @Test("the pending count and the oldest write's age follow the outbox")
    func pendingCountAndAge() async throws {
        // Given two writes queued 90 s apart
        let harness = try await OfflineHarness()
        let updates = harness.engine.statusUpdates()
        try await harness.outbox.enqueue(OfflineFixture.enroll("course-2"))
        harness.environment.advance(by: .seconds(90))
        try await harness.outbox.enqueue(OfflineFixture.enroll("course-3"))

        // When the status is recounted
        await harness.engine.refreshStatus()

        // Then two are pending and the oldest waited 90 s
        let published = await collect(updates) { $0.last?.pendingCount == 2 }
        #expect(published.last?.pendingCount == 2)
        #expect(published.last?.oldestPendingAge == 90)
        #expect(published.first == SyncStatus())
    }

    @Test("dead letters and parked conflicts are counted, and nothing is left pending")
    func deadLettersAndConflictsCounted() async throws {
        // Given a write the server refuses and one that conflicts under the manual strategy
        let harness = try await OfflineHarness(policy: ConflictPolicy([.progress: .manual]))
        harness.routes.on(.post, "/v1/courses/course-2/enrollment", .response(.problem(404, code: "not_found")))
        harness.routes.on(.put, Self.path, OfflineFixture.versionConflict(current: OfflineFixture.progress(watched: 9, version: 4), version: 4))
        try await harness.seedProgress(OfflineFixture.progress(watched: 1, version: 3))
        try await harness.enrollment.enroll(courseID: "course-2")
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 5)
        let updates = harness.engine.statusUpdates()

        // When the outbox drains
        await harness.engine.syncNow()

        // Then the status counts one of each
        let published = await collect(updates) { $0.last?.conflictCount == 1 && $0.last?.deadLetterCount == 1 }
        let last = try #require(published.last)
        #expect(last.deadLetterCount == 1)
        #expect(last.conflictCount == 1)
        #expect(last.pendingCount == 0)
        #expect(last.oldestPendingAge == nil)
    }

    @Test("a drain is published as syncing, then as finished at the clock's time")
    func syncingThenFinished() async throws {
        // Given a write and a server that notes what the status said while it was asked
        let harness = try await OfflineHarness()
        let sawSyncing = Locked<Bool?>(nil)
        harness.routes.on(.post, "/v1/courses/course-2/enrollment") { _ in
            sawSyncing.withLock { $0 = harness.engine.status.isSyncing }
            return .json(200, OfflineFixture.enrollment(courseID: "course-2"))
        }
        try await harness.enrollment.enroll(courseID: "course-2")
        let updates = harness.engine.statusUpdates()

        // When it drains
        await harness.engine.syncNow()

        // Then the stream said syncing, then finished with the sync time and no error
        let published = await collect(updates) { $0.last?.lastSyncAt != nil && $0.last?.pendingCount == 0 }
        #expect(sawSyncing.value == true)
        #expect(published.contains { $0.isSyncing })
        let last = try #require(published.last)
        #expect(!last.isSyncing)
        #expect(last.lastSyncAt == harness.environment.now)
        #expect(last.lastError == nil)
    }

    @Test("a failed drain publishes its error and keeps the last successful sync time")
    func failureKeepsLastSync() async throws {
        // Given a drain that succeeded
        let harness = try await OfflineHarness()
        harness.routes.on(
            .post, "/v1/courses/course-2/enrollment", .response(.json(200, OfflineFixture.enrollment(courseID: "course-2"))))
        harness.routes.on(.post, "/v1/courses/course-3/enrollment", .status(503))
        try await harness.enrollment.enroll(courseID: "course-2")
        await harness.engine.syncNow()
        let succeededAt = harness.environment.now

        // When a later drain meets a server error
        harness.environment.advance(by: .seconds(60))
        try await harness.enrollment.enroll(courseID: "course-3")
        let updates = harness.engine.statusUpdates()
        await harness.engine.syncNow()

        // Then the error is published and the last sync stays the successful one
        let published = await collect(updates) { $0.last?.lastError != nil && $0.last?.isSyncing == false }
        let last = try #require(published.last)
        #expect(last.lastError == "HTTP 503")
        #expect(last.lastSyncAt == succeededAt)
        #expect(last.pendingCount == 1)
        #expect(last.oldestPendingAge == 0)
    }

    @Test("a successful drain is remembered as the last sync date in the preferences")
    func lastSyncDateSaved() async throws {
        let harness = try await OfflineHarness()
        #expect(try await harness.preferences.current().lastSyncDate == nil)

        await harness.engine.syncNow()

        #expect(try await harness.preferences.current().lastSyncDate == harness.environment.now)
    }

    @Test("the last sync time has one home, the store: a new engine on the same store publishes it")
    func lastSyncTimeSurvivesANewEngine() async throws {
        // Given a successful sync in one session
        let store = try OfflineStore.inMemory(tenantID: Fixture.tenantID, userID: OfflineHarness.userID)
        let harness = try await OfflineHarness(store: store)
        await harness.engine.syncNow()
        let syncedAt = harness.environment.now

        // When the app relaunches (a new engine over the same store) and counts the outbox
        harness.environment.advance(by: .seconds(60))
        let relaunched = try await OfflineHarness(store: store, environment: harness.environment)
        await relaunched.engine.refreshStatus()

        // Then the status says when the last sync was, as the preferences do
        #expect(relaunched.engine.status.lastSyncAt == syncedAt)
        #expect(try await relaunched.preferences.current().lastSyncDate == syncedAt)
    }

    @Test("the connection state is part of the status")
    func connectionState() async throws {
        let harness = try await OfflineHarness()
        let updates = harness.engine.statusUpdates()

        harness.monitor.set(false)
        await harness.engine.refreshStatus()

        let published = await collect(updates) { $0.last?.isConnected == false }
        #expect(published.map(\.isConnected) == [true, false])
    }
}
