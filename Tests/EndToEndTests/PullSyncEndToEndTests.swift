import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// Sync both ways: what others change reaches a learner's store through `syncNow()`'s pull.
@Suite(.serialized, .timeLimit(.minutes(5))) struct PullSyncEndToEndTests {
    static let teacherEmail = "teacher1@demo.edugo.dev"
    static let teacherPassword = "Demo-Teacher-2026"

    /// The pull requests the server logged after `sequence`.
    static func pulls(_ server: EduGoTestServer, after sequence: Int) async throws -> [EduGoTestServer.LoggedRequest] {
        try await server.loggedRequests(after: sequence).filter { $0.route == "/v1/sync/changes" }
    }

    static func lastSequence(_ server: EduGoTestServer) async throws -> Int {
        try await server.loggedRequests().map(\.sequence).max() ?? 0
    }

    @Test("a teacher's six kinds of change reach a learner's store through one syncNow with one pull; offline reads show them")
    func sixChangesReachTheLearner() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let learner = try await makeEduGoClient(server: server.baseURL, directory: root)
                .signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            let first = await learner.engine.syncNow()
            #expect(first.baseSync)
            #expect(first.pullError == nil)
            let before = try await learner.courses.list().value
            let enrolled = try await learner.enrollment.enrolledCourseIDs().value
            #expect(before.count == 7)

            // A teacher renames a course, unpublishes one, deletes one, publishes a new one,
            // renames a lesson and deletes another.
            let teacher = try await serverView(server.baseURL, email: Self.teacherEmail, password: Self.teacherPassword)
            let mine: Page<Course> = try await teacher.execute(endpoint: .Courses.list(limit: 100))
            // The demo's only draft is this teacher's: their published courses are the ones they may change.
            let teacherID = try #require(mine.items.first { !$0.published }?.teacherId)
            let own = mine.items.filter { $0.published && $0.teacherId == teacherID }
            let renamed = try #require(own.first { enrolled.contains($0.id) })
            let deleted = try #require(own.first { enrolled.contains($0.id) && $0.id != renamed.id })
            let unpublished = try #require(own.first { !enrolled.contains($0.id) })
            _ = try await teacher.execute(
                endpoint: .Courses.update(renamed.id), body: ["title": "Renombrado", "version": AnyEncodable(renamed.version)],
                as: Course.self)
            _ = try await teacher.execute(
                endpoint: .Courses.update(unpublished.id), body: ["published": AnyEncodable(false), "version": AnyEncodable(unpublished.version)],
                as: Course.self)
            try await teacher.perform(endpoint: .Courses.delete(deleted.id))
            let created: Course = try await teacher.execute(
                endpoint: .Courses.create,
                body: ["title": AnyEncodable("Nuevo curso"), "category": AnyEncodable("science"), "published": AnyEncodable(true)])
            let lessons: LessonList = try await teacher.execute(endpoint: .Courses.lessons(renamed.id))
            let lessonRenamed = try #require(lessons.items.first)
            let lessonDeleted = try #require(lessons.items.last)
            _ = try await teacher.execute(
                endpoint: .Courses.updateLesson(renamed.id, lessonRenamed.id),
                body: ["title": AnyEncodable("Lección renombrada"), "version": AnyEncodable(lessonRenamed.version)], as: Lesson.self)
            try await teacher.perform(endpoint: .Courses.deleteLesson(renamed.id, lessonDeleted.id))

            // The learner syncs once.
            let mark = try await Self.lastSequence(server)
            let report = await learner.engine.syncNow()

            #expect(report.pullError == nil)
            #expect(!report.baseSync)
            #expect(report.pulled > 0)
            #expect(try await Self.pulls(server, after: mark).count == 1)
            let titles = try await learner.courses.list().value.map(\.title)
            #expect(titles.contains("Renombrado"))
            #expect(titles.contains("Nuevo curso"))
            #expect(!titles.contains(unpublished.title))
            #expect(!titles.contains(deleted.title))
            #expect(titles.count == 7 - 2 + 1)
            #expect(try await learner.courses.course(id: created.id) != nil)
            let lessonTitles = try await learner.courses.lessons(courseID: renamed.id).value.map(\.title)
            #expect(lessonTitles.contains("Lección renombrada"))
            #expect(!lessonTitles.contains(lessonDeleted.title))
            #expect(try await learner.courses.lessons(courseID: deleted.id).value.isEmpty)
            #expect(!(try await learner.enrollment.enrolledCourseIDs().value.contains(deleted.id)))
            await server.shutdown()
        }
    }

    @Test("a learner who missed 200 changes catches up with one pull request")
    func catchUpCostsTheChange() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let learner = try await makeEduGoClient(server: server.baseURL, directory: root)
                .signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            _ = await learner.engine.syncNow()
            let teacher = try await serverView(server.baseURL, email: Self.teacherEmail, password: Self.teacherPassword)
            let course: Course = try await teacher.execute(
                endpoint: .Courses.create,
                body: ["title": AnyEncodable("Doscientas lecciones"), "category": AnyEncodable("science"), "published": AnyEncodable(true)])
            for index in 1...200 {
                let _: Lesson = try await teacher.execute(
                    endpoint: .Courses.createLesson(course.id), body: ["title": AnyEncodable("Lección \(index)")])
            }

            let mark = try await Self.lastSequence(server)
            let report = await learner.engine.syncNow()

            #expect(report.pullError == nil)
            #expect(report.pulled == 201)
            #expect(try await Self.pulls(server, after: mark).count == 1)
            #expect(try await learner.courses.lessons(courseID: course.id).value.count == 200)
            await server.shutdown()
        }
    }

    @Test("a cursor past the retention window: 410, a base sync, and the queued write, dead letter and parked conflict are still there")
    func expiredCursorKeepsUnsyncedWork() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start {
                $0.seedDemoData = true
                $0.changeRetention = .seconds(3600)
            }
            let learner = try await makeEduGoClient(
                server: server.baseURL, directory: root, policy: ConflictPolicy([.profile: .manual])
            ).signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            _ = await learner.engine.syncNow()
            let enrolled = try await learner.enrollment.enrolledCourseIDs().value.sorted()
            let courseID = try #require(enrolled.first)
            let lessons = try await learner.courses.lessons(courseID: courseID).value
            let lessonID = try #require(lessons.first?.id)
            let other = try #require(try await learner.courses.list().value.first { !enrolled.contains($0.id) })
            let otherLesson = try #require(try await learner.courses.lessons(courseID: other.id).value.first)

            // A profile edit made on another device first: this device's edit is a parked conflict.
            let otherDevice = try await serverView(server.baseURL)
            let _: User = try await otherDevice.execute(
                endpoint: .Users.updateMe, body: ["first_name": AnyEncodable("Otra"), "version": AnyEncodable(1)])
            _ = try await learner.profile.update(firstName: "Esta")
            // A write the server keeps answering 503 to stays queued; one it refuses becomes a dead letter.
            // (More than the demo's 480 s: a watch time only grows, so a smaller one would show as 480.)
            try await server.inject(.status(503), method: .put, path: "/v1/courses/\(courseID)/progress", tenantID: "demo")
            try await learner.progress.record(courseID: courseID, lessonID: lessonID, watchedSeconds: 4_242)
            try await learner.progress.record(courseID: other.id, lessonID: otherLesson.id, watchedSeconds: 7)
            _ = await learner.engine.syncNow()
            #expect(try await learner.engine.outbox.pending().count == 1)
            #expect(try await learner.engine.outbox.deadLetters().count == 1)
            #expect(try await learner.engine.outbox.conflicts().count == 1)

            // Time passes beyond the retention window while a teacher renames a course.
            let teacher = try await serverView(server.baseURL, email: Self.teacherEmail, password: Self.teacherPassword)
            let mine: Page<Course> = try await teacher.execute(endpoint: .Courses.list(limit: 100))
            let teacherID = try #require(mine.items.first { !$0.published }?.teacherId)
            let target = try #require(mine.items.first { $0.published && $0.teacherId == teacherID })
            _ = try await teacher.execute(
                endpoint: .Courses.update(target.id), body: ["title": AnyEncodable("Tras la retención"), "version": AnyEncodable(target.version)],
                as: Course.self)
            try await server.advanceClock(by: .seconds(7200))

            let report = await learner.engine.syncNow()

            #expect(report.pullError == nil)
            #expect(report.baseSync)
            #expect(try await learner.courses.list().value.contains { $0.title == "Tras la retención" })
            #expect(try await learner.engine.outbox.pending().count == 1)
            #expect(try await learner.engine.outbox.deadLetters().count == 1)
            #expect(try await learner.engine.outbox.conflicts().count == 1)
            let progress = try await learner.progress.lessons(courseID: courseID)
            #expect(progress.hasPendingWrites)
            #expect(progress.value.first { $0.lessonId == lessonID }?.watchedSeconds == 4_242)
            await server.shutdown()
        }
    }
}

/// A JSON body member of any encodable type.
struct AnyEncodable: Encodable, Sendable {
    private let encodeValue: @Sendable (any Encoder) throws -> Void

    init<Value: Encodable & Sendable>(_ value: Value) {
        encodeValue = { encoder in try value.encode(to: encoder) }
    }

    func encode(to encoder: any Encoder) throws {
        try encodeValue(encoder)
    }
}

extension AnyEncodable: ExpressibleByStringLiteral {
    init(stringLiteral value: String) { self.init(value) }
}

/// The same through the real `edugo` binary.
@Suite(.serialized, .timeLimit(.minutes(5))) struct PullSyncCLIEndToEndTests {
    @Test("edugo sync now reports what it pulled, and --offline reads show a teacher's change afterwards")
    func syncNowPullsForOfflineReads() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let cli = CLIRunner(server: server.baseURL, dataDirectory: root.appendingPathComponent("cli"))
            let login = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
            #expect(login.status == 0, "\(login.stderr)")
            let first = try await cli.run(["--json", "sync", "now"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.json?["pull_error"] is NSNull, "login pulled already; this pull finds nothing new")

            let teacher = try await serverView(
                server.baseURL, email: PullSyncEndToEndTests.teacherEmail, password: PullSyncEndToEndTests.teacherPassword)
            let created: Course = try await teacher.execute(
                endpoint: .Courses.create,
                body: ["title": AnyEncodable("Visto sin conexión"), "category": AnyEncodable("arts"), "published": AnyEncodable(true)])

            let before = try await cli.run(["--json", "--offline", "courses", "list"])
            #expect(!before.stdout.contains(created.title))
            let sync = try await cli.run(["--json", "sync", "now"])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.json?["pulled"] as? Int == 1)
            #expect(sync.json?["base_sync"] as? Bool == false)
            let after = try await cli.run(["--json", "--offline", "courses", "list"])
            #expect(after.status == 0, "\(after.stderr)")
            let titles = ((after.json?["items"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
            #expect(titles.contains(created.title))
            await server.shutdown()
        }
    }
}
