import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

/// The SDK against the dev server's fault rules and movable clock, through real HTTP.
@Suite(.serialized, .timeLimit(.minutes(5))) struct DevToolsEndToEndTests {
    /// A signed-in student of the server's fresh tenant, enrolled in a course, with a lesson to record.
    struct Learner {
        var session: OfflineSession
        var courseID: String
        var lessonID: String
    }

    static func learner(
        _ server: EduGoTestServer, client: EduGoClient
    ) async throws -> Learner {
        let student = server.account(.student)
        let session = try await client.signIn(email: student.email, password: student.password)
        #expect(try await session.engine.refresh(.courses) == nil)
        let courseID = try #require(try await session.courses.search("").value.map(\.id).sorted().first)
        try await session.enrollment.enroll(courseID: courseID)
        _ = await session.engine.syncNow()
        #expect(try await session.engine.outbox.pending().isEmpty)
        #expect(try await session.engine.refresh(.lessons(courseID: courseID)) == nil)
        let lessonID = try #require(try await session.courses.lessons(courseID: courseID).value.first?.id)
        return Learner(session: session, courseID: courseID, lessonID: lessonID)
    }

    /// What the server holds for the student's lesson, read with a client of its own.
    static func serverProgress(_ server: EduGoTestServer, courseID: String, lessonID: String) async throws -> LessonProgress? {
        let student = server.account(.student)
        let api = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID, retryPolicy: .none))
        try await AuthService(client: api).login(email: student.email, password: student.password)
        let progress = try await api.execute(endpoint: .Courses.progress(courseID), as: CourseProgress.self)
        return progress.lessons.first { $0.lessonId == lessonID }
    }

    /// The status of `GET /v1/users/me` with a bare access token: no refresh, no retry.
    static func profileStatus(_ server: EduGoTestServer, accessToken: String) async throws -> Int {
        var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/users/me"))
        request.setValue(server.tenantID, forHTTPHeaderField: "X-Tenant-ID")
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test("a progress write whose answer the server dropped is replayed with its key: Idempotent-Replayed, one version step")
    func droppedResponseIsReplayed() async throws {
        let server = try await EduGoTestServer.start()
        try await withTemporaryDirectory { root in
            let transport = RecordingTransport()
            // A short timeout: on Linux, libcurl re-sends a request whose reused connection died
            // without a reply, and for a request with a body that re-send stalls in
            // FoundationNetworking until the timeout; the SDK then sees the loss.
            let client = EduGoClient(
                configuration: APIConfiguration(
                    baseURL: server.baseURL, tenantID: server.tenantID, timeout: .seconds(10), retryPolicy: .none,
                    readRefresh: patientReads),
                dataDirectory: root, transport: transport, environment: fastEnvironment)
            let learner = try await Self.learner(server, client: client)
            let session = learner.session
            let before = try await Self.serverProgress(server, courseID: learner.courseID, lessonID: learner.lessonID)?.version ?? 0

            // Given the server will lose the answer of the next progress write
            try await server.inject(.dropResponse, method: .put, path: "/v1/courses/*/progress", times: 1)

            // When the student records progress and the app syncs
            try await session.progress.record(courseID: learner.courseID, lessonID: learner.lessonID, watchedSeconds: 420)
            let first = await session.engine.syncNow()
            #expect(first.sent == 0)
            #expect(try await session.engine.outbox.pending().count == 1)

            // Then the next sync replays it with the same key and the server answers from its record
            client.monitor.set(true)
            #expect(try await eventually {
                await session.engine.syncNow()
                return try await session.engine.outbox.pending().isEmpty
            })
            let puts = transport.exchanges { $0.method == .put }
            try #require(puts.count == 2)
            #expect(puts[0].response == nil)
            let key = try #require(puts[0].request.headers["Idempotency-Key"])
            #expect(puts[1].request.headers["Idempotency-Key"] == key)
            #expect(puts[1].response?.statusCode == 200)
            #expect(puts[1].response?.header("Idempotent-Replayed") == "true")
            // And the write was applied exactly once
            let after = try #require(try await Self.serverProgress(server, courseID: learner.courseID, lessonID: learner.lessonID))
            #expect(after.watchedSeconds == 420)
            #expect(after.version == before + 1)
            #expect(try await server.injectedFaults().map(\.fired) == [1])
        }
        await server.shutdown()
    }

    @Test("a 503 with Retry-After: 2 is retried by the SDK no sooner than 2 s later")
    func retryAfterIsHonoured() async throws {
        let server = try await EduGoTestServer.start()
        let sleeps = Mutex<[Duration]>([])
        // The SDK's sleeps are recorded, not waited: the test proves the wait it asked for.
        let environment = SDKEnvironment(
            now: { Date() }, sleep: { duration in sleeps.withLock { $0.append(duration) } }, jitter: { 0 })
        let transport = RecordingTransport()
        let api = APIClient(
            configuration: APIConfiguration(
                baseURL: server.baseURL, tenantID: server.tenantID, retryPolicy: .default, readRefresh: patientReads),
            transport: transport, environment: environment)
        let student = server.account(.student)
        try await AuthService(client: api).login(email: student.email, password: student.password)

        // Given the next course list answers 503 with Retry-After: 2
        try await server.inject(.status(503, retryAfter: 2), method: .get, path: "/v1/courses", times: 1)

        // When the app lists courses
        let page = try await api.execute(endpoint: .Courses.list(limit: 5), as: Page<Course>.self)

        // Then the SDK waited at least 2 s between the refused attempt and the one that succeeded
        #expect(!page.items.isEmpty)
        let lists = transport.exchanges { $0.method == .get && $0.url.path == "/v1/courses" }
        #expect(lists.map { $0.response?.statusCode } == [503, 200])
        #expect(lists.first?.response?.header("Retry-After") == "2")
        let waited = sleeps.withLock { $0 }
        #expect(waited.count == 1)
        #expect(waited.allSatisfy { $0 >= .seconds(2) })
        #expect(try await server.injectedFaults().map(\.fired) == [1])
        await server.shutdown()
    }

    @Test("a write queued, the server clock moved 24 h + 1 s, and the SDK marks it stale through the real flow")
    func queuedWriteGoesStale() async throws {
        let server = try await EduGoTestServer.start()
        try await withTemporaryDirectory { root in
            // The app's clock is the server's, so both see the day pass
            let environment = SDKEnvironment(
                now: server.now, sleep: { duration in try await Task.sleep(for: duration / 50) }, jitter: { 0 })
            let client = EduGoClient(
                configuration: APIConfiguration(
                    baseURL: server.baseURL, tenantID: server.tenantID, retryPolicy: .none, readRefresh: patientReads),
                dataDirectory: root, environment: environment)
            let learner = try await Self.learner(server, client: client)
            let session = learner.session

            // Given a write queued but not sent
            try await session.progress.record(courseID: learner.courseID, lessonID: learner.lessonID, watchedSeconds: 30)
            #expect(try await session.engine.outbox.pending().count == 1)

            let probe = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID, retryPolicy: .none))
            let student = server.account(.student)
            try await AuthService(client: probe).login(email: student.email, password: student.password)
            let accessToken = try #require(await probe.session.currentTokens()?.accessToken)
            #expect(try await Self.profileStatus(server, accessToken: accessToken) == 200)

            // When a day and a second pass and the app syncs
            try await server.advanceClock(by: .seconds(24 * 3600 + 1))
            let report = await session.engine.syncNow()

            // (the server's own clock moved: an access token it issued a moment ago has expired)
            #expect(try await Self.profileStatus(server, accessToken: accessToken) == 401)

            // Then the write is a dead letter with reason stale, and the server never applied it
            #expect(report.deadLettered == 1)
            let letters = try await session.engine.outbox.deadLetters()
            #expect(letters.map(\.reason) == ["stale"])
            #expect(try await session.engine.outbox.pending().isEmpty)
            #expect(try await Self.serverProgress(server, courseID: learner.courseID, lessonID: learner.lessonID) == nil)
        }
        await server.shutdown()
    }

    @Test("EduGoTestServer hashes passwords at bcrypt's lowest cost, 4, and its accounts sign in")
    func cheapPasswordHashing() async throws {
        var cost: UInt8 = 0
        try await EduGoTestServer.with({ cost = $0.passwordHashCost }) { server in
            let student = server.account(.student)
            let auth = AuthService(client: APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID)))
            try await auth.login(email: student.email, password: student.password)
            #expect(try await auth.me().email == student.email)
        }
        #expect(cost == 4)
    }

    @Test("stop takes a test server off the network; restart brings it back on its port with its data and clock")
    func stopAndRestart() async throws {
        try await EduGoTestServer.with { server in
            let student = server.account(.student)
            let auth = AuthService(
                client: APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID, retryPolicy: .none)))
            try await auth.login(email: student.email, password: student.password)
            try await server.advanceClock(by: .seconds(3600))

            // When the server stops, the client cannot reach it
            await server.stop()
            await #expect(throws: NetworkError.noConnection) { try await auth.me() }

            // Then after a restart the same session works (tenant, account and signing key kept)
            try await server.restart()
            #expect(try await auth.me().email == student.email)
            // And the server's clock is still an hour ahead
            var request = URLRequest(url: server.baseURL.appendingPathComponent("__dev/clock"))
            request.setValue(server.tenantID, forHTTPHeaderField: "X-Tenant-ID")
            let (data, _) = try await URLSession.shared.data(for: request)
            let clock = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(clock["offset_seconds"] as? Int == 3600)
        }
    }

    @Test("two test servers' tenants with different fault rules do not see each other's faults")
    func tenantsDoNotShareFaults() async throws {
        // Given one server with the demo tenants, and a fault rule only for acme
        let server = try await EduGoTestServer.start { $0.seedDemoData = true }
        try await server.inject(.status(503), method: .get, path: "/v1/courses", tenantID: "acme")
        try await server.inject(.status(429, retryAfter: 1), method: .get, path: "/v1/courses", tenantID: server.tenantID)
        let demo = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: "demo", retryPolicy: .none))
        try await AuthService(client: demo).login(email: Demo.studentEmail, password: Demo.studentPassword)
        let acme = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: "acme", retryPolicy: .none))
        try await AuthService(client: acme).login(email: "student1@acme.example", password: Demo.studentPassword)

        // When each lists courses
        let demoPage = try await demo.execute(endpoint: .Courses.list(limit: 5), as: Page<Course>.self)
        let acmeError = await #expect(throws: NetworkError.self) {
            _ = try await acme.execute(endpoint: .Courses.list(limit: 5), as: Page<Course>.self)
        }

        // Then only acme's request was faulted, with acme's rule
        #expect(!demoPage.items.isEmpty)
        #expect(acmeError?.statusCode == 503)
        #expect(try await server.injectedFaults(tenantID: "acme").map(\.fired) == [1])
        #expect(try await server.injectedFaults().map(\.fired) == [0])
        await server.shutdown()
    }
}
