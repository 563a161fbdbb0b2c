import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// Signing out never destroys the user's work silently: writes still queued, writes the server
/// refused (dead letters) and conflicts parked for the user all make it refuse.
@Suite(.timeLimit(.minutes(2))) struct SignOutRulesEndToEndTests {
    struct ProgressBody: Encodable, Sendable {
        var lessonID: String
        var watchedSeconds: Int

        enum CodingKeys: String, CodingKey {
            case lessonID = "lesson_id"
            case watchedSeconds = "watched_seconds"
        }
    }

    @Test("with only a dead letter, sign-out is refused naming it; with discard it signs out")
    func deadLettersOnly() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let view = try await serverView(url)
                let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
                let all: Page<Course> = try await view.execute(endpoint: .Courses.list(limit: 100))
                let enrolled = Set(mine.items.map(\.course.id))
                let notEnrolled = try #require(all.items.first { !enrolled.contains($0.id) }?.id)
                let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(notEnrolled))
                let lessonID = try #require(lessons.items.first?.id)

                // Given progress on a course the learner is not enrolled in: the server refuses it
                let client = makeEduGoClient(server: url, directory: root)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                try await session.progress.record(courseID: notEnrolled, lessonID: lessonID, watchedSeconds: 30)
                let report = await session.engine.syncNow()
                #expect(report.deadLettered == 1)
                #expect(try await session.engine.outbox.pending().isEmpty)

                // When the learner signs out, then Then it is refused, naming the dead letter
                await #expect(throws: SignOutError.pendingChanges(count: 0, deadLetters: 1, conflicts: 0)) {
                    try await client.signOut()
                }
                #expect(try await client.resumeSession() != nil)

                try await client.signOut(discardingPendingChanges: true)
                #expect(try await client.resumeSession() == nil)
            }
        }
    }

    @Test("with only a parked conflict, sign-out is refused naming it")
    func conflictsOnly() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let view = try await serverView(url)
                let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
                let courseID = try #require(mine.items.first?.course.id)
                let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(courseID))
                let progress: CourseProgress = try await view.execute(endpoint: .Courses.progress(courseID))
                let recorded = Set(progress.lessons.map(\.lessonId))
                let lessonID = try #require(lessons.items.first { !recorded.contains($0.id) }?.id)

                // Given a learner who settles conflicts by hand, and another device recording the
                // same lesson first
                let client = makeEduGoClient(server: url, directory: root, policy: ConflictPolicy([.progress: .manual]))
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                #expect(try await session.engine.refresh(.progress(courseID: courseID)) == nil)
                let _: LessonProgress = try await view.execute(
                    endpoint: .Courses.putProgress(courseID), body: ProgressBody(lessonID: lessonID, watchedSeconds: 200))

                // When this device's write meets it
                try await session.progress.record(courseID: courseID, lessonID: lessonID, watchedSeconds: 30)
                let report = await session.engine.syncNow()
                #expect(report.conflictsParked == 1)
                #expect(try await session.engine.outbox.pending().isEmpty)
                #expect(try await session.engine.outbox.deadLetters().isEmpty)

                // Then signing out is refused, naming the conflict
                await #expect(throws: SignOutError.pendingChanges(count: 0, deadLetters: 0, conflicts: 1)) {
                    try await client.signOut()
                }
                #expect(try await session.engine.outbox.conflicts().count == 1)
            }
        }
    }
}
