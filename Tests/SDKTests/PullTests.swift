import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The pull: pages of the change feed applied with their cursor, base syncs that replace the
/// cache in one step, and pending writes that stay on top of what was pulled.
@Suite(.timeLimit(.minutes(1))) struct PullTests {
    static func course(_ id: String, title: String = "Curso", version: Int = 1) -> [String: Any] {
        [
            "id": id, "title": title, "description": "", "category": "math", "published": true, "teacher_id": "t-1",
            "lesson_count": 0, "version": version, "created_at": OfflineFixture.timestamp,
            "updated_at": OfflineFixture.timestamp,
        ]
    }

    static func progress(_ lessonID: String, watched: Int, version: Int) -> [String: Any] {
        [
            "lesson_id": lessonID, "completed": false, "completed_at": NSNull(), "watched_seconds": watched,
            "version": version, "updated_at": OfflineFixture.timestamp,
        ]
    }

    static func upsert(_ type: String, _ id: String, course: String?, _ data: [String: Any]) -> [String: Any] {
        ["type": type, "op": "upsert", "id": id, "course_id": course ?? NSNull(), "data": data]
    }

    static func delete(_ type: String, _ id: String, course: String?) -> [String: Any] {
        ["type": type, "op": "delete", "id": id, "course_id": course ?? NSNull()]
    }

    static func page(_ changes: [[String: Any]], cursor: String, hasMore: Bool = false, baseContinues: Bool = false) -> StubOutcome {
        .response(.json(200, ["changes": changes, "cursor": cursor, "has_more": hasMore, "base_continues": baseContinues]))
    }

    /// The cursor query item of each pull request sent so far.
    static func cursors(_ harness: OfflineHarness) -> [String?] {
        harness.requests(.get, "/v1/sync/changes").map { request in
            URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "cursor" }?.value
        }
    }

    /// A harness whose store has pulled once and stands at cursor `c0` with course `a` cached.
    static func harnessAtFirstCursor() async throws -> OfflineHarness {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, "/v1/sync/changes", page([upsert("course", "a", course: "a", course("a"))], cursor: "c0"))
        #expect(await harness.engine.pull().error == nil)
        return harness
    }

    @Test("a failure between two pages keeps the first page with its cursor; the next pull resumes there without re-applying it")
    func resumesFromStoredCursor() async throws {
        let harness = try await Self.harnessAtFirstCursor()
        harness.routes.on(
            .get, "/v1/sync/changes",
            Self.page([Self.upsert("course", "b", course: "b", Self.course("b"))], cursor: "c1", hasMore: true),
            .response(.problem(503, code: "unavailable")),
            Self.page([Self.upsert("course", "c", course: "c", Self.course("c"))], cursor: "c2"))

        let failed = await harness.engine.pull()

        #expect(failed.error == .serverStatus(503))
        #expect(try await harness.store.syncCursor() == "c1")
        #expect(try await harness.courses.list().value.map(\.id).sorted() == ["a", "b"])

        let resumed = await harness.engine.pull()

        #expect(resumed.error == nil)
        #expect(resumed.pulled == 1)
        #expect(try await harness.courses.list().value.map(\.id).sorted() == ["a", "b", "c"])
        #expect(Self.cursors(harness) == [nil, "c0", "c1", "c1"])
    }

    @Test("tombstones remove an entity, and a course's take its lessons, progress and enrollment; its queued writes stay")
    func tombstones() async throws {
        let harness = try await Self.harnessAtFirstCursor()
        let lesson: [String: Any] = [
            "id": "l-1", "course_id": "a", "title": "Uno", "content": "", "order": 1, "duration_minutes": 5,
            "version": 1, "created_at": OfflineFixture.timestamp, "updated_at": OfflineFixture.timestamp,
        ]
        harness.routes.on(
            .get, "/v1/sync/changes",
            Self.page([
                Self.upsert("lesson", "l-1", course: "a", lesson),
                Self.upsert("progress", "l-1", course: "a", Self.progress("l-1", watched: 10, version: 1)),
                Self.upsert("enrollment", "a", course: "a", ["course_id": "a", "user_id": "user-1", "enrolled_at": OfflineFixture.timestamp]),
                Self.upsert("course", "b", course: "b", Self.course("b")),
            ], cursor: "c1"),
            Self.page([Self.delete("course", "a", course: "a")], cursor: "c2"))
        #expect(await harness.engine.pull().error == nil)
        #expect(try await harness.courses.lessons(courseID: "a").value.count == 1)
        #expect(try await harness.enrollment.enrolledCourseIDs().value == ["a"])
        try await harness.progress.record(courseID: "a", lessonID: "l-1", watchedSeconds: 99)

        #expect(await harness.engine.pull().error == nil)

        #expect(try await harness.courses.list().value.map(\.id) == ["b"])
        #expect(try await harness.courses.lessons(courseID: "a").value.isEmpty)
        #expect(try await harness.entity(.progress, "a/l-1") == nil)
        #expect(try await harness.enrollment.enrolledCourseIDs().value.isEmpty)
        #expect(try await harness.outbox.pending().count == 1)
    }

    @Test("410 cursor_expired starts a base sync that replaces the cache in one step and keeps the outbox")
    func expiredCursorBaseSyncs() async throws {
        let harness = try await Self.harnessAtFirstCursor()
        try await harness.progress.record(courseID: "a", lessonID: "l-1", watchedSeconds: 40)
        harness.routes.on(
            .get, "/v1/sync/changes",
            .response(.problem(410, code: "cursor_expired")),
            Self.page([Self.upsert("course", "x", course: "x", Self.course("x"))], cursor: "base-1", hasMore: true, baseContinues: true),
            Self.page([Self.upsert("course", "y", course: "y", Self.course("y"))], cursor: "d1"))

        let result = await harness.engine.pull()

        #expect(result.error == nil)
        #expect(result.baseSync)
        #expect(try await harness.courses.list().value.map(\.id).sorted() == ["x", "y"])
        #expect(try await harness.outbox.pending().count == 1)
        #expect(try await harness.store.syncCursor() == "d1")
        #expect(Self.cursors(harness) == [nil, "c0", nil, "base-1"])
    }

    @Test("a base sync that fails half-way changes nothing: the old cache and cursor stay")
    func halfBaseSyncChangesNothing() async throws {
        let harness = try await Self.harnessAtFirstCursor()
        harness.routes.on(
            .get, "/v1/sync/changes",
            .response(.problem(410, code: "cursor_expired")),
            Self.page([Self.upsert("course", "x", course: "x", Self.course("x"))], cursor: "base-1", hasMore: true, baseContinues: true),
            .failure(.cannotConnectToHost))

        let result = await harness.engine.pull()

        #expect(result.error == .offline)
        #expect(try await harness.courses.list().value.map(\.id) == ["a"])
        #expect(try await harness.store.syncCursor() == "c0")
    }

    @Test("a pulled change under a queued write becomes its base: the view keeps the pending value, and the write is sent on the pulled version")
    func pendingWriteRebasedOnPull() async throws {
        let harness = try await OfflineHarness()
        let course = OfflineHarness.courseID
        try await harness.seedProgress(Self.progress("l-1", watched: 10, version: 1))
        try await harness.progress.record(courseID: course, lessonID: "l-1", watchedSeconds: 300)
        harness.routes.on(
            .get, "/v1/sync/changes",
            Self.page([Self.upsert("progress", "l-1", course: course, Self.progress("l-1", watched: 120, version: 2))], cursor: "c1"))

        #expect(await harness.engine.pull().error == nil)

        let view = try await harness.progress.lessons(courseID: course)
        #expect(view.hasPendingWrites)
        #expect(view.value.first?.watchedSeconds == 300)
        #expect(try await harness.entity(.progress, "\(course)/l-1")?.version == 2)

        harness.routes.on(.put, OfflineHarness.progressPath, .response(.json(200, Self.progress("l-1", watched: 300, version: 3))))
        harness.routes.on(.get, "/v1/sync/changes", Self.page([], cursor: "c2"))
        let report = await harness.engine.syncNow()

        #expect(report.sent == 1)
        let sent = try #require(harness.requests(.put, OfflineHarness.progressPath).first?.body)
        #expect(OfflineFixture.object(sent)["version"] as? Int == 2)
        let settled = try await harness.progress.lessons(courseID: course)
        #expect(!settled.hasPendingWrites)
        #expect(settled.value.first?.version == 3)
    }

    @Test("a pull overtaken by another pull of the same store applies nothing")
    func overtakenPullAppliesNothing() async throws {
        let harness = try await Self.harnessAtFirstCursor()
        let change = try JSONCoding.decoder.decode(
            PulledChange.self, from: OfflineFixture.data(Self.upsert("course", "z", course: "z", Self.course("z"))))

        let stale = try await harness.store.applyPull(
            [change], after: "an-older-cursor", cursor: "c9", replacing: false, finished: true, at: Date())

        #expect(stale == nil)
        #expect(try await harness.store.syncCursor() == "c0")
        #expect(try await harness.courses.list().value.map(\.id) == ["a"])
    }

    @Test("syncNow pushes, then pulls, and reports both")
    func syncNowPushesThenPulls() async throws {
        let harness = try await OfflineHarness()
        try await harness.seedProfile([
            "id": "user-1", "email": "a@b.c", "first_name": "Ana", "last_name": "G", "role": "student",
            "email_verified": true, "version": 1, "created_at": OfflineFixture.timestamp, "updated_at": OfflineFixture.timestamp,
        ])
        try await harness.profile.update(firstName: "Eva")
        harness.routes.on(.patch, "/v1/users/me", .response(.json(200, [
            "id": "user-1", "email": "a@b.c", "first_name": "Eva", "last_name": "G", "role": "student",
            "email_verified": true, "version": 2, "created_at": OfflineFixture.timestamp, "updated_at": OfflineFixture.timestamp,
        ])))
        harness.routes.on(.get, "/v1/sync/changes", Self.page([Self.upsert("course", "a", course: "a", Self.course("a"))], cursor: "c0"))

        let report = await harness.engine.syncNow()

        #expect(report.sent == 1)
        #expect(report.pulled == 1)
        #expect(report.applied == 1)
        #expect(report.baseSync)
        #expect(report.pullError == nil)
        #expect(harness.engine.status.lastPullAt != nil)
        let order = harness.transport.requests.map { "\($0.method.rawValue) \($0.url.path)" }
        #expect(order == ["PATCH /v1/users/me", "GET /v1/sync/changes"])
    }

    @Test("list reads refresh by pulling from the stored cursor, never by paging through the lists")
    func listRefreshesPull() async throws {
        let harness = try await Self.harnessAtFirstCursor()
        harness.routes.on(.get, "/v1/sync/changes", Self.page([Self.upsert("course", "b", course: "b", Self.course("b"))], cursor: "c1"))

        for job in [RefreshJob.courses, .enrollments, .lessons(courseID: "a"), .progress(courseID: "a"), .profile, .changes(.lesson)] {
            #expect(try await harness.engine.refresh(job) == nil)
        }

        let paths = Set(harness.transport.requests.map(\.url.path))
        #expect(paths == ["/v1/sync/changes"])
        #expect(Self.cursors(harness).dropFirst() == ["c0", "c1", "c1", "c1", "c1", "c1"])
        #expect(try await harness.courses.list().value.map(\.id).sorted() == ["a", "b"])
    }
}
