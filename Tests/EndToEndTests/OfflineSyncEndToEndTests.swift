import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// The offline-first SDK against a live server that goes away and comes back.
@Suite(.serialized, .timeLimit(.minutes(5))) struct OfflineSyncEndToEndTests {
    @Test("offline writes survive a new client on the same directory and sync by themselves exactly once")
    func offlineWritesSyncAfterRestart() async throws {
        try await withTemporaryDirectory { root in
            let clientData = root.appendingPathComponent("client")
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let url = server.baseURL

            // Given a signed-in learner whose courses, lessons and progress are cached
            let first = makeEduGoClient(server: url, directory: clientData)
            let session = try await first.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            try await session.engine.refresh(.enrollments)
            try await session.engine.refresh(.courses)
            let enrolled = try await session.enrollment.enrolledCourseIDs().value
            let courseID = try #require(enrolled.sorted().first)
            try await session.engine.refresh(.lessons(courseID: courseID))
            try await session.engine.refresh(.progress(courseID: courseID))
            let lessons = try await session.courses.lessons(courseID: courseID).value
            #expect(lessons.count >= 5)
            let before = try await serverView(url).execute(endpoint: .Courses.progress(courseID), as: CourseProgress.self)
            let otherCourse = try #require(try await session.courses.list().value.first { !enrolled.contains($0.id) })

            // When the server goes away and the learner keeps working
            await server.stop()
            for step in 1...20 {
                let lesson = lessons[step % 5]
                try await session.progress.record(
                    courseID: courseID, lessonID: lesson.id, watchedSeconds: step * 30, completed: step > 15)
            }
            try await session.profile.update(firstName: "Ana María")
            try await session.enrollment.enroll(courseID: otherCourse.id)
            let local = try await session.progress.lessons(courseID: courseID)
            #expect(local.hasPendingWrites)
            #expect(try await session.profile.me()?.value.firstName == "Ana María")
            // 20 progress writes to 5 lessons coalesce into 5 items, plus the profile and the enrollment.
            let queued = try await session.engine.outbox.pending()
            #expect(queued.count == 7)

            // And the app is closed: the client is discarded, a new one opens the same directory
            let second = makeEduGoClient(server: url, directory: clientData)
            let resumed = try #require(try await second.resumeSession())
            #expect(try await resumed.engine.outbox.pending().count == queued.count)
            let syncing = Task { await resumed.run() }
            defer { syncing.cancel() }

            // Then the server comes back and everything syncs without syncNow()
            try await server.restart()
            #expect(try await eventually { try await resumed.engine.outbox.pending().isEmpty })
            #expect(resumed.engine.status.deadLetterCount == 0)

            // And the server holds every change exactly once
            let view = try await serverView(url)
            let after: CourseProgress = try await view.execute(endpoint: .Courses.progress(courseID))
            for index in 0..<5 {
                let lesson = lessons[index]
                let lastStep = (1...20).filter { $0 % 5 == index }.max() ?? 0
                let record = try #require(after.lessons.first { $0.lessonId == lesson.id })
                #expect(record.watchedSeconds == lastStep * 30)
                #expect(record.completed == (lastStep > 15))
                // One write per lesson reached the server: its version moved by exactly one.
                let previous = before.lessons.first { $0.lessonId == lesson.id }?.version ?? 0
                #expect(record.version == previous + 1)
            }
            let me: User = try await view.execute(endpoint: .Users.me)
            #expect(me.firstName == "Ana María")
            #expect(me.version == 2)
            let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
            #expect(mine.items.filter { $0.course.id == otherCourse.id }.count == 1)
            await server.shutdown()
        }
    }
}
