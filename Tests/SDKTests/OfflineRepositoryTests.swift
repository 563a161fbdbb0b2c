import Foundation
import Testing

@testable import EduGoSDK

/// The repositories' local-first view: optimistic writes laid over the server's last state, the
/// server's answer once synced, and `observe()` streams fed by GRDB `ValueObservation`.
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
        let initial = try await values.next()
        #expect(initial?.map(\.watchedSeconds) == [10])

        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)

        let next = try await values.next()
        #expect(next?.map(\.watchedSeconds) == [90])
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
        #expect(initial??.firstName == "Ada")

        try await harness.profile.update(lastName: "López")

        let next = try await values.next()
        #expect(next??.lastName == "López")
        #expect(next??.firstName == "Ada")
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
        #expect(try await values.next() == [])

        try await harness.enrollment.enroll(courseID: "course-2")

        #expect(try await values.next() == ["course-2"])
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
        harness.routes.on(.get, "/v1/courses", .response(.json(200, ["items": [course], "page": 1, "limit": 100, "total": 1])))
        var values = harness.courses.observe().makeAsyncIterator()
        #expect(try await values.next() == [])

        try await harness.engine.refresh(.courses)

        #expect(try await values.next()?.map(\.id) == ["course-1"])
        #expect(try await harness.courses.search("algebra").value.map(\.id) == ["course-1"])
    }
}
