import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// Two devices of one learner edit the same progress and profile offline, then sync.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ConflictEndToEndTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var strategy: ConflictStrategy
        var watchedSeconds: Int
        var completed: Bool
        var lastName: String?
        var testDescription: String { strategy.rawValue }
    }

    // Device A syncs first: watched 300, not completed; first name "Ana A".
    // Device B syncs second: watched 120, completed; last name "López B".
    static let cases: [Expected] = [
        Expected(strategy: .merge, watchedSeconds: 300, completed: true, lastName: "López B"),
        Expected(strategy: .serverWins, watchedSeconds: 300, completed: false, lastName: nil),
        Expected(strategy: .clientWins, watchedSeconds: 120, completed: true, lastName: "López B"),
    ]

    @Test("each strategy yields its documented result and both devices converge", arguments: cases)
    func strategies(_ expected: Expected) async throws {
        try await runTwoDevices(strategy: expected.strategy) { server, a, b, courseID, lessonID, originalLastName in
            let view = try await serverView(server)
            let progress: CourseProgress = try await view.execute(endpoint: .Courses.progress(courseID))
            let record = try #require(progress.lessons.first { $0.lessonId == lessonID })
            #expect(record.watchedSeconds == expected.watchedSeconds)
            #expect(record.completed == expected.completed)
            let me: User = try await view.execute(endpoint: .Users.me)
            #expect(me.firstName == "Ana A")
            #expect(me.lastName == (expected.lastName ?? originalLastName))
            try await expectConverged(a, b, courseID: courseID, lessonID: lessonID, server: record, profile: me)
        }
    }

    @Test("manual parks both conflicts until the app keeps its own version")
    func manualResolution() async throws {
        try await runTwoDevices(strategy: .manual) { server, a, b, courseID, lessonID, originalLastName in
            let view = try await serverView(server)
            let conflicts = try await b.engine.outbox.conflicts()
            #expect(conflicts.count == 2)
            #expect(b.engine.status.conflictCount == 2)
            let parked: User = try await view.execute(endpoint: .Users.me)
            #expect(parked.lastName == originalLastName)

            for conflict in conflicts {
                try await b.engine.outbox.resolveConflict(id: conflict.id, choice: .keepMine)
            }
            await b.engine.syncNow()
            #expect(try await b.engine.outbox.pending().isEmpty)
            let progress: CourseProgress = try await view.execute(endpoint: .Courses.progress(courseID))
            let record = try #require(progress.lessons.first { $0.lessonId == lessonID })
            #expect(record.watchedSeconds == 120)
            #expect(record.completed)
            let me: User = try await view.execute(endpoint: .Users.me)
            #expect(me.lastName == "López B")
            try await expectConverged(a, b, courseID: courseID, lessonID: lessonID, server: record, profile: me)
        }
    }

    /// Sets up two signed-in devices with the same cached state, makes the offline edits, syncs A
    /// then B, and hands over for the checks.
    private func runTwoDevices(
        strategy: ConflictStrategy,
        _ check: (URL, OfflineSession, OfflineSession, String, String, String) async throws -> Void
    ) async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let policy = ConflictPolicy([.progress: strategy, .profile: strategy, .enrollment: .serverWins])
                let deviceA = makeEduGoClient(server: url, directory: root.appendingPathComponent("a"), policy: policy)
                let deviceB = makeEduGoClient(server: url, directory: root.appendingPathComponent("b"), policy: policy)
                let a = try await deviceA.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                let b = try await deviceB.signIn(email: Demo.studentEmail, password: Demo.studentPassword)

                // Given lesson progress both devices have cached at the same version
                try await a.engine.refresh(.enrollments)
                let courseID = try #require(try await a.enrollment.enrolledCourseIDs().value.sorted().first)
                try await a.engine.refresh(.lessons(courseID: courseID))
                let lessonID = try #require(try await a.courses.lessons(courseID: courseID).value.first?.id)
                let view = try await serverView(url)
                let _: LessonProgress = try await view.execute(
                    endpoint: .Courses.putProgress(courseID), method: .put,
                    body: ProgressUpdate(lessonId: lessonID, completed: false, watchedSeconds: 60),
                    headers: ["If-Match": "*"])
                for session in [a, b] {
                    try await session.engine.refresh(.progress(courseID: courseID))
                    try await session.engine.refresh(.profile)
                }
                let originalLastName = try #require(try await a.profile.me()?.value.lastName)

                // When both edit offline (nothing is sent until they sync)
                try await a.progress.record(courseID: courseID, lessonID: lessonID, watchedSeconds: 300, completed: false)
                try await a.profile.update(firstName: "Ana A")
                try await b.progress.record(courseID: courseID, lessonID: lessonID, watchedSeconds: 120, completed: true)
                try await b.profile.update(lastName: "López B")

                // And A syncs first, then B
                let first = await a.engine.syncNow()
                #expect(first.sent == 2)
                await b.engine.syncNow()
                await b.engine.syncNow()

                try await check(url, a, b, courseID, lessonID, originalLastName)
            }
        }
    }

    private func expectConverged(
        _ a: OfflineSession, _ b: OfflineSession, courseID: String, lessonID: String, server: LessonProgress, profile: User
    ) async throws {
        for session in [a, b] {
            try await session.engine.refresh(.progress(courseID: courseID))
            try await session.engine.refresh(.profile)
            let local = try await session.progress.lessons(courseID: courseID)
            #expect(!local.hasPendingWrites)
            #expect(local.value.first { $0.lessonId == lessonID } == server)
            #expect(try await session.profile.me()?.value == profile)
        }
    }
}
