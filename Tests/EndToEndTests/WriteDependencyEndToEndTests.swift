import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// A write that needs another one first: progress in a course needs the enrollment in it.
@Suite(.timeLimit(.minutes(3))) struct WriteDependencyEndToEndTests {
    @Test("enrolling and then recording progress in the same course offline: both land after sync, no dead letter")
    func enrollThenProgressOffline() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let view = try await serverView(url)
                let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
                let all: Page<Course> = try await view.execute(endpoint: .Courses.list(limit: 100))
                let enrolled = Set(mine.items.map(\.course.id))
                let courseID = try #require(all.items.first { !enrolled.contains($0.id) }?.id)
                let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(courseID))
                let lessonID = try #require(lessons.items.first?.id)
                let client = makeEduGoClient(server: url, directory: root)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)

                // Given, while offline, an enrollment in a course and then progress in it
                await server.stop()
                try await session.enrollment.enroll(courseID: courseID)
                _ = try await session.progress.record(courseID: courseID, lessonID: lessonID, watchedSeconds: 75)
                #expect(try await session.engine.outbox.pending().count == 2)

                // When the server is back (slow to enroll, so a progress write sent alongside the
                // enrollment would arrive first) and the outbox drains
                try await server.restart()
                try await server.inject(.delay(.milliseconds(800)), method: .post, path: "/v1/courses/*/enrollment", times: 1, tenantID: "demo")
                let report = await session.engine.syncNow()

                // Then both writes landed, in order, and nothing was dead-lettered
                #expect(report.sent == 2)
                #expect(report.deadLettered == 0)
                #expect(report.remaining == 0)
                #expect(try await session.engine.outbox.deadLetters().isEmpty)
                let courses: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
                #expect(courses.items.contains { $0.course.id == courseID })
                let progress: CourseProgress = try await view.execute(endpoint: .Courses.progress(courseID))
                #expect(progress.lessons.first { $0.lessonId == lessonID }?.watchedSeconds == 75)
            }
        }
    }
}
