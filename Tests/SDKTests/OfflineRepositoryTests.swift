import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The repositories' local-first view: optimistic writes laid over the server's last state, the
/// server's answer once synced, and `observe()` streams of the same `Cached` snapshots.
@Suite(.timeLimit(.minutes(1))) struct OfflineRepositoryTests {
    static let course = OfflineHarness.courseID

    // MARK: Progress

    @Test("a recorded progress shows at once over the server's state, marked as pending")
    func progressIsOptimistic() async throws {
        // Given lesson progress the server reported at version 1
        let harness = try await OfflineHarness()
        try await harness.seedProgress(OfflineFixture.progress(watched: 10, version: 1))

        // When the learner watches more, offline
        let recorded = try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)

        // Then the local view shows it, on top of the server's record, as pending
        let local = try await harness.progress.lessons(courseID: Self.course)
        #expect(local.hasPendingWrites)
        #expect(local.value == [recorded])
        #expect(recorded.watchedSeconds == 90)
        #expect(recorded.version == 1)
        #expect(!recorded.completed)
        #expect(local.fetchedAt == harness.environment.now)
    }

    @Test("a first write of a lesson without a record shows a new record")
    func firstWriteShowsNewRecord() async throws {
        let harness = try await OfflineHarness()

        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-2", completed: true)

        let local = try await harness.progress.lessons(courseID: Self.course)
        let lesson = try #require(local.value.first)
        #expect(local.value.count == 1)
        #expect(lesson.lessonId == "lesson-2")
        #expect(lesson.completed)
        #expect(lesson.watchedSeconds == 0)
        #expect(lesson.version == 0)
        #expect(local.hasPendingWrites)
    }

    @Test("after a successful sync the server's state is shown and nothing is pending")
    func progressAfterSync() async throws {
        // Given a pending write and a server that answers with its own view of the record
        let harness = try await OfflineHarness()
        try await harness.seedProgress(OfflineFixture.progress(watched: 10, version: 1))
        harness.routes.on(.put, OfflineHarness.progressPath, .response(.json(200, OfflineFixture.progress(watched: 95, version: 2))))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)

        // When it syncs
        await harness.engine.syncNow()

        // Then the local view is the server's answer
        let local = try await harness.progress.lessons(courseID: Self.course)
        #expect(!local.hasPendingWrites)
        #expect(local.value.map(\.watchedSeconds) == [95])
        #expect(local.value.map(\.version) == [2])
    }

    @Test("observing progress delivers a new value after a write")
    func progressObservation() async throws {
        let harness = try await OfflineHarness()
        try await harness.seedProgress(OfflineFixture.progress(watched: 10, version: 1))
        var values = harness.progress.observe(courseID: Self.course).makeAsyncIterator()
        let initial = try #require(try await values.next())
        #expect(initial.value.map(\.watchedSeconds) == [10])
        #expect(!initial.hasPendingWrites)

        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)

        let next = try #require(try await values.next())
        #expect(next.value.map(\.watchedSeconds) == [90])
        #expect(next.hasPendingWrites)
    }

    // MARK: Profile

    @Test("a profile edit shows at once, as pending, and the server's answer replaces it after sync")
    func profileEdit() async throws {
        // Given the profile as the server sent it
        let harness = try await OfflineHarness()
        try await harness.seedProfile(OfflineFixture.user(firstName: "Ada", version: 1))
        harness.routes.on(.patch, "/v1/users/me", .response(.json(200, OfflineFixture.user(firstName: "Ana", version: 2))))

        // When the learner renames themself
        let edited = try await harness.profile.update(firstName: "Ana")

        // Then the new name shows at once, pending
        #expect(edited?.firstName == "Ana")
        let pending = try #require(try await harness.profile.me())
        #expect(pending.hasPendingWrites)
        #expect(pending.value.firstName == "Ana")
        #expect(pending.value.version == 1)
        let sent = try #require(try await harness.outbox.pending().first)
        #expect(sent.baseVersion == 1)

        // And after the sync it is the server's version
        await harness.engine.syncNow()
        let synced = try #require(try await harness.profile.me())
        #expect(!synced.hasPendingWrites)
        #expect(synced.value.firstName == "Ana")
        #expect(synced.value.version == 2)
    }

    @Test("the profile is nil until it was fetched once")
    func profileUnknownBeforeFetch() async throws {
        let harness = try await OfflineHarness()

        #expect(try await harness.profile.me() == nil)
    }

    @Test("observing the profile delivers a new value after an edit")
    func profileObservation() async throws {
        let harness = try await OfflineHarness()
        try await harness.seedProfile(OfflineFixture.user(firstName: "Ada"))
        var values = harness.profile.observe().makeAsyncIterator()
        let initial = try await values.next()
        #expect(initial??.value.firstName == "Ada")
        #expect(initial??.hasPendingWrites == false)

        try await harness.profile.update(lastName: "López")

        let next = try await values.next()
        #expect(next??.value.lastName == "López")
        #expect(next??.value.firstName == "Ada")
        #expect(next??.hasPendingWrites == true)
    }

    @Test("an observed value fetched before the session opened is from the cache until a refresh confirms it")
    func observationIsFromCacheUntilConfirmed() async throws {
        // Given a profile an earlier run fetched an hour before this session
        let harness = try await OfflineHarness()
        let earlier = try await profileFetchedAnHourAgo(harness)
        var values = harness.profile.observe().makeAsyncIterator()
        let cached = try #require(try await values.next() ?? nil)
        #expect(cached.isFromCache)
        #expect(cached.fetchedAt == earlier)

        // When a refresh brings the server's profile
        harness.routes.on(.get, "/v1/sync/changes", .response(.json(200, [
            "changes": [["type": "profile", "op": "upsert", "id": "user-1", "data": OfflineFixture.user(firstName: "Ada", version: 2)]],
            "cursor": "c1", "has_more": false, "base_continues": false,
        ])))
        try await harness.engine.refresh(.profile)

        // Then the next value is confirmed by the server
        let confirmed = try #require(try await values.next() ?? nil)
        #expect(!confirmed.isFromCache)
        #expect(confirmed.value.version == 2)
        #expect(confirmed.fetchedAt == harness.environment.now)
    }

    @Test("a read fetched before the session opened is confirmed by a pull that reached the feed's end with nothing new")
    func readConfirmedByAnEmptyPull() async throws {
        // Given a profile an earlier run fetched an hour before this session
        let harness = try await OfflineHarness()
        let earlier = try await profileFetchedAnHourAgo(harness)
        #expect(try #require(try await harness.profile.me()).isFromCache)

        // When a sync's pull reaches the end of the feed without sending the profile again
        harness.routes.on(.get, "/v1/sync/changes", .response(.json(200, [
            "changes": [], "cursor": "c1", "has_more": false, "base_continues": false,
        ])))
        let report = await harness.engine.syncNow()
        #expect(report.pullError == nil)

        // Then the server confirmed it: not from the cache, still fetched an hour ago
        let confirmed = try #require(try await harness.profile.me())
        #expect(!confirmed.isFromCache)
        #expect(confirmed.staleReason == nil)
        #expect(confirmed.fetchedAt == earlier)
    }

    // MARK: Enrollment

    @Test("enrolling shows at once; leaving before it was sent cancels it")
    func enrollThenLeave() async throws {
        let harness = try await OfflineHarness()

        try await harness.enrollment.enroll(courseID: "course-2")
        let enrolled = try await harness.enrollment.enrolledCourseIDs()
        try await harness.enrollment.unenroll(courseID: "course-2")
        let left = try await harness.enrollment.enrolledCourseIDs()

        #expect(enrolled.value == ["course-2"])
        #expect(enrolled.hasPendingWrites)
        #expect(left.value.isEmpty)
        #expect(!left.hasPendingWrites)
        #expect(try await harness.outbox.pending().isEmpty)
    }

    @Test("observing enrollments delivers a new value after enrolling")
    func enrollmentObservation() async throws {
        let harness = try await OfflineHarness()
        var values = harness.enrollment.observe().makeAsyncIterator()
        #expect(try await values.next()?.value == [])

        try await harness.enrollment.enroll(courseID: "course-2")

        let enrolled = try #require(try await values.next())
        #expect(enrolled.value == ["course-2"])
        #expect(enrolled.hasPendingWrites)
    }

    // MARK: Courses

    @Test("observing courses delivers the list a refresh stored")
    func courseObservation() async throws {
        let harness = try await OfflineHarness()
        let course: [String: Any] = [
            "id": "course-1", "title": "Álgebra básica", "description": "Ecuaciones", "category": "math", "published": true,
            "teacher_id": "t-1", "lesson_count": 3, "version": 1, "created_at": OfflineFixture.timestamp,
            "updated_at": OfflineFixture.timestamp,
        ]
        harness.routes.on(.get, "/v1/sync/changes", .response(.json(200, [
            "changes": [["type": "course", "op": "upsert", "id": "course-1", "course_id": "course-1", "data": course]],
            "cursor": "c1", "has_more": false, "base_continues": false,
        ])))
        var values = harness.courses.observe().makeAsyncIterator()
        let empty = try #require(try await values.next())
        #expect(empty.value == [])
        #expect(empty.isFromCache)

        try await harness.engine.refresh(.courses)

        let refreshed = try #require(try await values.next())
        #expect(refreshed.value.map(\.id) == ["course-1"])
        #expect(!refreshed.isFromCache)
        #expect(try await harness.courses.search("algebra").value.map(\.id) == ["course-1"])
    }

    /// Stores version 1 of Ada's profile and a finished pull's cursor as an earlier run left them,
    /// an hour before this session; returns that moment.
    private func profileFetchedAnHourAgo(_ harness: OfflineHarness) async throws -> Date {
        let earlier = harness.environment.now.addingTimeInterval(-3600)
        let json = OfflineFixture.data(OfflineFixture.user(firstName: "Ada", version: 1))
        _ = try await harness.store.writer.write { db in
            try LocalCache.apply(db, resource: .profile, operation: .update, json: json, at: earlier)
            try OfflineStore.storeCursor(db, "c0", finished: true, at: earlier)
        }
        return earlier
    }
}
