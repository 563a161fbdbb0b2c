import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Synchronization
import Testing

/// One user's sync never runs beside another's: signing in as someone else stops the previous
/// session's background work and waits for it.
@Suite(.timeLimit(.minutes(3))) struct SessionSwitchEndToEndTests {
    /// Set once a task's work has returned.
    final class Flag: Sendable {
        private let state = Mutex(false)
        func set() { state.withLock { $0 = true } }
        var isSet: Bool { state.withLock { $0 } }
    }

    @Test("signing in as another user stops the previous user's run() before sign-in returns")
    func switchStopsThePreviousSession() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                // Given a learner's session syncing in the background (a write of theirs drained)
                let client = makeEduGoClient(server: server.baseURL, directory: root)
                let first = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                let ended = Flag()
                let running = Task {
                    await first.run()
                    ended.set()
                }
                _ = try await first.profile.update(firstName: "Primera")
                #expect(try await eventually { try await first.engine.outbox.pending().isEmpty })
                #expect(!ended.isSet)

                // When another learner signs in on the same client
                let second = try await client.signIn(email: "student2@demo.edugo.dev", password: Demo.studentPassword)

                // Then the first learner's run() had returned by then
                #expect(ended.isSet)
                #expect(second.store.userID != first.store.userID)
                running.cancel()
                await running.value
                // And running it again does nothing: that session is over
                await first.run()
            }
        }
    }

    @Test("two concurrent sign-ins end with exactly one running session: the last one's, whose tokens are stored")
    func concurrentSignInsLeaveOneRunning() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                for round in 0..<20 {
                    // Given a client, and two learners signing in on it at once
                    let client = makeEduGoClient(server: server.baseURL, directory: root.appendingPathComponent("round-\(round)"))
                    async let first = client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                    async let second = client.signIn(email: "student2@demo.edugo.dev", password: Demo.studentPassword)
                    let sessions = try await [first, second]

                    // When the app runs both sessions it was handed
                    let ended = sessions.map { _ in Flag() }
                    let running = zip(sessions, ended).map { session, flag in
                        Task {
                            await session.run()
                            flag.set()
                        }
                    }
                    // The replaced session's run() returns at once; the open one keeps running
                    _ = try await eventually(timeout: .seconds(5)) { ended.contains { $0.isSet } }
                    try await Task.sleep(for: .milliseconds(200))

                    // Then exactly one runs: the one whose user holds the tokens, which resuming returns
                    let stillRunning = zip(sessions, ended).filter { !$0.1.isSet }.map(\.0)
                    #expect(stillRunning.count == 1, "round \(round)")
                    let tokens = await client.api.session.currentTokens()
                    #expect(stillRunning.first.map { $0.store.userID } == tokens?.userID, "round \(round)")
                    let resumed = try await client.resumeSession()
                    #expect(resumed === stillRunning.first, "round \(round)")
                    for task in running { task.cancel() }
                    for task in running { await task.value }
                }
            }
        }
    }

    @Test("signing out ends the session's running run() before sign-out returns")
    func signOutEndsRun() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                // Given a learner's session syncing in the background
                let client = makeEduGoClient(server: server.baseURL, directory: root)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                let ended = Flag()
                let running = Task {
                    await session.run()
                    ended.set()
                }
                _ = try await session.profile.update(firstName: "Primera")
                #expect(try await eventually { try await session.engine.outbox.pending().isEmpty })
                #expect(!ended.isSet)

                // When the learner signs out
                try await client.signOut()

                // Then run() had returned by then, without the task being cancelled
                #expect(ended.isSet)
                running.cancel()
                await running.value
            }
        }
    }

    @Test("A's writes wait through A's expired session and B's sign-in: none reach B's account, and they sync when A is back")
    func anotherUsersSessionNeverCarriesTheWrites() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let secondEmail = "student2@demo.edugo.dev"
                let viewB = try await serverView(url, email: secondEmail)
                let coursesB: Page<EnrolledCourse> = try await viewB.execute(endpoint: .Users.myCourses(limit: 100))
                let viewA = try await serverView(url)
                let coursesA: Page<EnrolledCourse> = try await viewA.execute(endpoint: .Users.myCourses(limit: 100))
                // A course both learners are enrolled in, so A's progress would be accepted in B's account
                let shared = Set(coursesB.items.map(\.course.id))
                let courseID = try #require(coursesA.items.first { shared.contains($0.course.id) }?.course.id)
                let lessons: LessonList = try await viewA.execute(endpoint: .Courses.lessons(courseID))
                let lessonID = try #require(lessons.items.first?.id)
                let progressOfBBefore: CourseProgress = try await viewB.execute(endpoint: .Courses.progress(courseID))
                let client = makeEduGoClient(server: url, directory: root)

                // Given A's writes waiting, and sign-out refused because of them
                let first = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                _ = try await first.profile.update(firstName: "Ana-pendiente")
                _ = try await first.progress.record(courseID: courseID, lessonID: lessonID, watchedSeconds: 1_234)
                await #expect(throws: SignOutError.pendingChanges(count: 2)) { try await client.signOut() }
                // And A's session ended elsewhere (a password reset), which A's engine learns
                let auth = AuthService(client: viewA)
                try await auth.forgotPassword(email: Demo.studentEmail)
                let token = try await mailedToken(kind: "reset_password", to: Demo.studentEmail, client: viewA)
                try await auth.resetPassword(token: token, newPassword: "Nueva-Clave-2026")
                #expect(await first.engine.syncNow().sent == 0)
                #expect(await client.api.session.currentTokens() == nil)

                // When B signs in on the same device, and A's engine tries again
                let second = try await client.signIn(email: secondEmail, password: Demo.studentPassword)
                let retried = await first.engine.syncNow()
                _ = await second.engine.syncNow()

                // Then nothing of A's reached B's account, and A's writes still wait
                #expect(retried.sent == 0)
                #expect(retried.deadLettered == 0)
                #expect(try await first.engine.outbox.pending().count == 2)
                let meB: User = try await viewB.execute(endpoint: .Users.me)
                #expect(meB.firstName != "Ana-pendiente")
                let progressOfB: CourseProgress = try await viewB.execute(endpoint: .Courses.progress(courseID))
                #expect(progressOfB == progressOfBBefore)

                // And when A signs in again, A's outbox is there and syncs into A's account
                let again = try await client.signIn(email: Demo.studentEmail, password: "Nueva-Clave-2026")
                #expect(again.store.fileURL == first.store.fileURL)
                #expect(try await again.engine.outbox.pending().count == 2)
                let report = await again.engine.syncNow()
                #expect(report.sent == 2)
                let meA: User = try await serverView(url, password: "Nueva-Clave-2026").execute(endpoint: .Users.me)
                #expect(meA.firstName == "Ana-pendiente")
            }
        }
    }
}
