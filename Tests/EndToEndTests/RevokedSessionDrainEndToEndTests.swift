import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// A session the server ended while writes were queued: the drain halts, and the writes wait in
/// the outbox for the learner to sign in again. They are never dead-lettered (the server did not
/// refuse them) and never sent with any token but the session's own.
@Suite(.timeLimit(.minutes(3))) struct RevokedSessionDrainEndToEndTests {
    @Test("a password reset elsewhere ends the session while writes are queued: the drain halts, nothing is dead-lettered or sent with another token")
    func revokedSessionHaltsTheDrain() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let view = try await serverView(url)
                let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
                let courseID = try #require(mine.items.first?.course.id)
                let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(courseID))
                let lessonID = try #require(lessons.items.first?.id)
                let transport = RecordingTransport()
                let client = EduGoClient(
                    configuration: APIConfiguration(baseURL: url, tenantID: "demo", retryPolicy: .none, readRefresh: patientReads),
                    dataDirectory: root, transport: transport, environment: fastEnvironment)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                let signedIn = try #require(await client.api.session.currentTokens())

                // Given two writes of the learner's queued (the engine is not running: they wait)
                _ = try await session.profile.update(firstName: "Revocada")
                _ = try await session.progress.record(courseID: courseID, lessonID: lessonID, watchedSeconds: 45)
                let queued = Set(try await session.engine.outbox.pending().map(\.resource))
                #expect(queued == [.profile, .progress(course: courseID, lesson: lessonID)])
                // And the learner's password reset on another device, which ends every session of
                // theirs: the access token is refused and so is the refresh token
                let auth = AuthService(client: view)
                try await auth.forgotPassword(email: Demo.studentEmail)
                let resetToken = try await mailedToken(kind: "reset_password", to: Demo.studentEmail, client: view)
                try await auth.resetPassword(token: resetToken, newPassword: "Otra-Clave-2026")
                let sentBefore = transport.exchanges { _ in true }.count

                // When the outbox drains
                let report = await session.engine.syncNow()

                // Then it halted at the refusal: nothing sent, nothing dead-lettered, both writes queued
                #expect(report.sent == 0)
                #expect(report.deadLettered == 0)
                #expect(report.remaining == 2)
                #expect(try await session.engine.outbox.deadLetters().isEmpty)
                #expect(Set(try await session.engine.outbox.pending().map(\.resource)) == queued)
                // And the status says why, with the writes still counted as pending
                #expect(session.engine.status.error == .signedOut)
                #expect(session.engine.status.lastError == "signed out")
                #expect(session.engine.status.pendingCount == 2)
                #expect(session.engine.status.deadLetterCount == 0)
                #expect(await client.api.session.currentTokens() == nil)
                // And every write request of the drain carried the session's own token, once per item
                let drained = transport.exchanges { _ in true }.dropFirst(sentBefore)
                let writes = drained.filter { !$0.request.url.path.hasPrefix("/v1/auth/") }
                #expect(!writes.isEmpty)
                #expect(writes.count <= 2)
                for write in writes {
                    #expect(write.request.headers["Authorization"] == "Bearer \(signedIn.accessToken)")
                    #expect(write.response?.statusCode == 401)
                }
                // And the server holds none of them
                let fresh = try await serverView(url, password: "Otra-Clave-2026")
                let me: User = try await fresh.execute(endpoint: .Users.me)
                #expect(me.firstName != "Revocada")
                let progress: CourseProgress = try await fresh.execute(endpoint: .Courses.progress(courseID))
                #expect(progress.lessons.first { $0.lessonId == lessonID }?.watchedSeconds != 45)
            }
        }
    }

    @Test("a quiet device whose session was ended elsewhere: the pull finds it, and the status says signed out until the user signs in again")
    func revokedSessionFoundByAPull() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let view = try await serverView(server.baseURL)
                let client = device(server, root)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                // Given a device with nothing queued, synced once
                #expect(await session.engine.syncNow().pullError == nil)
                // And the learner's password reset on another device, which ends every session of theirs
                try await resetPasswordElsewhere(view)

                // When it syncs: nothing to send, so only its pull meets the server
                let report = await session.engine.syncNow()

                // Then the pull found the session ended, and the status says so (the app shows its sign-in)
                #expect(report.sent == 0)
                #expect(report.pullError == .signedOut)
                #expect(session.engine.status.error == .signedOut)
                #expect(session.engine.status.lastError == "signed out")
                // And a later sync, with still nothing to send, does not forget it
                _ = await session.engine.syncNow()
                #expect(session.engine.status.error == .signedOut)

                // When the learner signs in again on the same device
                let again = try await client.signIn(email: Demo.studentEmail, password: "Otra-Clave-2026")
                // Then a sync clears it
                #expect(await again.engine.syncNow().pullError == nil)
                #expect(again.engine.status.error == nil)
            }
        }
    }

    @Test("a read's refresh that finds the session ended elsewhere says signed out at once, and signing in again clears it before any sync")
    func revokedSessionFoundByARead() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let view = try await serverView(server.baseURL)
                let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
                let courseID = try #require(mine.items.first?.course.id)
                let client = device(server, root)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                #expect(await session.engine.syncNow().pullError == nil)
                // Given the learner's password reset on another device, which ends every session of theirs
                try await resetPasswordElsewhere(view)

                // When the app refreshes a read (no drain, no sync): the only request of the device
                await #expect(throws: NetworkError.sessionExpired) {
                    try await session.engine.refresh(.progress(courseID: courseID))
                }

                // Then the status says signed out already (the app shows its sign-in)
                #expect(session.engine.status.error == .signedOut)
                #expect(session.engine.status.lastError == "signed out")

                // When the learner signs in again on the same device: the same user's session goes on
                let again = try await client.signIn(email: Demo.studentEmail, password: "Otra-Clave-2026")
                // Then the status no longer says signed out, before any sync
                #expect(again.engine.status.error == nil)
            }
        }
    }

    @Test("a sign-out after the server ended the session is refused while its writes wait, and signing in again sends them")
    func signOutOfAnEndedSessionKeepsItsWrites() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let view = try await serverView(server.baseURL)
                let client = device(server, root)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                // Given a write queued, then the learner's password reset on another device
                _ = try await session.profile.update(firstName: "Pendiente")
                try await resetPasswordElsewhere(view)
                // And the device found out: its drain met the refusal and its tokens are gone
                _ = await session.engine.syncNow()
                #expect(session.engine.status.error == .signedOut)
                #expect(await client.api.session.currentTokens() == nil)

                // When the user signs out (to hand the device to someone else)
                // Then it is refused, naming the waiting write, which stays queued
                await #expect(throws: SignOutError.pendingChanges(count: 1, deadLetters: 0, conflicts: 0)) {
                    try await client.signOut()
                }
                #expect(try await session.engine.outbox.pending().map(\.resource) == [.profile])

                // When the learner signs in again on the device and it syncs
                let again = try await client.signIn(email: Demo.studentEmail, password: "Otra-Clave-2026")
                #expect(await again.engine.syncNow().sent == 1)
                // Then the server holds the write, and now the sign-out goes through
                let fresh = try await serverView(server.baseURL, password: "Otra-Clave-2026")
                let me: User = try await fresh.execute(endpoint: .Users.me)
                #expect(me.firstName == "Pendiente")
                try await client.signOut()
                #expect(try await client.resumeSession() == nil)
            }
        }
    }

    @Test("a drain that ends on a timeout after another request found the session ended leaves the status at signed out")
    func drainEndingLaterKeepsSignedOut() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let view = try await serverView(server.baseURL)
                let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
                let courseID = try #require(mine.items.first?.course.id)
                let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(courseID))
                let lessonID = try #require(lessons.items.first?.id)
                let client = device(server, root, timeout: .milliseconds(400))
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                // Given a queued write whose PUT the server will answer too late, and the learner's
                // password reset on another device
                _ = try await session.progress.record(courseID: courseID, lessonID: lessonID, watchedSeconds: 45)
                try await resetPasswordElsewhere(view)
                try await server.inject(.delay(.seconds(2)), method: .put, path: "/v1/courses/*/progress", times: 1, tenantID: "demo")
                let statuses = session.engine.statusUpdates()

                // When the engine runs (its drain's PUT goes out with the old access token and waits)
                // and meanwhile a read's refresh finds the session ended
                let errors = await withTaskGroup(of: [SyncError?].self) { group in
                    group.addTask {
                        var seen: [SyncError?] = []
                        for await status in statuses { seen.append(status.error) }
                        return seen
                    }
                    group.addTask {
                        await session.engine.run()
                        return []
                    }
                    try? await Task.sleep(for: .milliseconds(150))
                    _ = try? await session.engine.refresh(.progress(courseID: courseID))
                    // (the PUT times out at 400 ms: its drain ends with a timeout)
                    try? await Task.sleep(for: .milliseconds(700))
                    group.cancelAll()
                    return await group.reduce(into: []) { $0 += $1 }
                }

                // Then once the status said signed out, it never said anything else
                let firstSignedOut = try #require(errors.firstIndex(of: .signedOut), "never signed out: \(errors)")
                #expect(errors[firstSignedOut...].allSatisfy { $0 == .signedOut }, "\(errors)")
                #expect(session.engine.status.error == .signedOut)
            }
        }
    }

    @Test("a refresh whose answer was lost leaves the device a spent token: sent again within the grace window it is honoured, sent after it the server ends the session and the device says signed out")
    func lostRefreshAnswerAgedPastTheGraceWindow() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let client = device(server, root)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                #expect(await session.engine.syncNow().pullError == nil)

                // Given an expired access token and a refresh the server applies (it rotates the
                // token) but whose answer is lost
                try await server.advanceClock(by: .seconds(960))
                try await server.inject(.dropResponse, method: .post, path: "/v1/auth/refresh", times: 1, tenantID: "demo")
                #expect(await session.engine.syncNow().pullError != nil)
                // (the server logs the dropped exchange as it closes the connection, maybe after the device saw it close)
                #expect(try await eventually(timeout: .seconds(5)) {
                    try await server.loggedRequests().contains { $0.route == "/v1/auth/refresh" && $0.fault?.action == "drop_response" }
                })
                // When the device sends its spent token again at once (within the server's 10 s grace window)
                // Then the server answers with fresh tokens and the session goes on
                #expect(await session.engine.syncNow().pullError == nil)
                #expect(session.engine.status.error == nil)

                // Given a second lost answer
                try await server.advanceClock(by: .seconds(960))
                try await server.inject(.dropResponse, method: .post, path: "/v1/auth/refresh", times: 1, tenantID: "demo")
                #expect(await session.engine.syncNow().pullError != nil)
                #expect(session.engine.status.error != .signedOut)
                // When the device sends its spent token again a minute later (past the grace window)
                try await server.advanceClock(by: .seconds(60))
                _ = await session.engine.syncNow()
                // Then the server takes it for a stolen token and ends the session: signed out
                #expect(session.engine.status.error == .signedOut)
            }
        }
    }

    /// A device of the demo tenant with its store in `root`, waiting `timeout` for each answer.
    private func device(_ server: EduGoTestServer, _ root: URL, timeout: Duration = .seconds(30)) -> EduGoClient {
        EduGoClient(
            configuration: APIConfiguration(
                baseURL: server.baseURL, tenantID: "demo", timeout: timeout, retryPolicy: .none, readRefresh: patientReads),
            dataDirectory: root, environment: fastEnvironment)
    }

    /// The learner's password reset on another device, which ends every session of theirs.
    private func resetPasswordElsewhere(_ view: APIClient) async throws {
        let auth = AuthService(client: view)
        try await auth.forgotPassword(email: Demo.studentEmail)
        try await auth.resetPassword(
            token: try await mailedToken(kind: "reset_password", to: Demo.studentEmail, client: view), newPassword: "Otra-Clave-2026")
    }
}
