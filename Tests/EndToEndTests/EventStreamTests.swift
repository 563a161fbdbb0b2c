import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import Testing

/// `GET /v1/sync/events` on a live server: what it announces, to whom, and when it ends.
@Suite(.serialized, .timeLimit(.minutes(5))) struct EventStreamTests {
    static let teacherEmail = "teacher1@demo.edugo.dev"
    static let teacherPassword = "Demo-Teacher-2026"

    /// A teacher's published course to rename and their draft, as the teacher's client sees them.
    static func teacherCourses(_ teacher: APIClient) async throws -> (published: Course, draft: Course) {
        let mine: Page<Course> = try await teacher.execute(endpoint: .Courses.list(limit: 100))
        let draft = try #require(mine.items.first { !$0.published })
        let published = try #require(mine.items.first { $0.published && $0.teacherId == draft.teacherId })
        return (published, draft)
    }

    static func rename(_ course: Course, to title: String, by teacher: APIClient) async throws -> Course {
        let current: Course = try await teacher.execute(endpoint: .Courses.get(course.id))
        return try await teacher.execute(
            endpoint: .Courses.update(course.id), body: ["title": AnyEncodable(title), "version": AnyEncodable(current.version)],
            as: Course.self)
    }

    /// Runs `body` against a fresh server with the demo tenants, shut down afterwards whatever happens.
    static func withDemoServer(
        _ configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (EduGoTestServer) async throws -> Void
    ) async throws {
        let server = try await EduGoTestServer.start {
            $0.seedDemoData = true
            configure(&$0)
        }
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    static func token(_ server: URL, email: String = Demo.studentEmail, password: String = Demo.studentPassword) async throws -> String {
        try await serverView(server, email: email, password: password).session.validAccessToken()
    }

    @Test("a student's stream announces a published course's change within a second, and never a change inside a draft")
    func announcesWhatTheCallerSees() async throws {
        try await Self.withDemoServer { server in
            let teacher = try await serverView(server.baseURL, email: Self.teacherEmail, password: Self.teacherPassword)
            let (published, draft) = try await Self.teacherCourses(teacher)
            let stream = try await EventStreamReader.open(server.baseURL, token: try await Self.token(server.baseURL))
            #expect(await stream.status == 200)
            #expect(await stream.headers["content-type"]?.hasPrefix("text/event-stream") == true)
            #expect(await stream.headers["cache-control"] == "no-store")
            // Without Last-Event-ID the first event comes at once.
            #expect(await stream.wait { $0.changed.count == 1 })

            _ = try await Self.rename(draft, to: "Borrador renombrado", by: teacher)
            #expect(await !stream.wait(timeout: .milliseconds(800)) { $0.changed.count > 1 })

            let before = await stream.changed.last?.id
            let started = ContinuousClock.now
            _ = try await Self.rename(published, to: "Renombrado en vivo", by: teacher)
            #expect(await stream.wait(timeout: .seconds(1)) { $0.changed.count == 2 })
            let event = try #require(await stream.changed.last)
            #expect(event.arrivedAt - started < .seconds(1))
            #expect(event.id != before)
            #expect(event.data == "{\"cursor\":\"\(event.id ?? "")\"}")
            await stream.close()
        }
    }

    @Test("reconnecting with Last-Event-ID: an event at once when something changed meanwhile, none when nothing did")
    func resumesFromLastEventID() async throws {
        try await Self.withDemoServer { server in
            let teacher = try await serverView(server.baseURL, email: Self.teacherEmail, password: Self.teacherPassword)
            let token = try await Self.token(server.baseURL)
            let first = try await EventStreamReader.open(server.baseURL, token: token)
            #expect(await first.wait { $0.changed.count == 1 })
            let id = try #require(await first.changed.first?.id)
            await first.close()

            let current = try await EventStreamReader.open(server.baseURL, token: token, lastEventID: id)
            #expect(await current.status == 200)
            #expect(await !current.wait(timeout: .milliseconds(800)) { !$0.changed.isEmpty })
            await current.close()

            _ = try await Self.rename(try await Self.teacherCourses(teacher).published, to: "Mientras tanto", by: teacher)
            let behind = try await EventStreamReader.open(server.baseURL, token: token, lastEventID: id)
            #expect(await behind.wait(timeout: .seconds(1)) { $0.changed.count == 1 })
            #expect(await behind.changed.first?.id != id)

            // An id that is no cursor of this caller's is answered at once too: the client must pull.
            let foreign = try await EventStreamReader.open(server.baseURL, token: token, lastEventID: "not-a-cursor")
            #expect(await foreign.wait(timeout: .seconds(1)) { $0.changed.count == 1 })
            await behind.close()
            await foreign.close()
        }
    }

    @Test("the 6th open stream of one user answers 429 too_many_streams with Retry-After; closing one frees a place")
    func sixthStreamIsRefused() async throws {
        try await Self.withDemoServer { server in
            let token = try await Self.token(server.baseURL)
            var open: [EventStreamReader] = []
            for _ in 0..<5 {
                let stream = try await EventStreamReader.open(server.baseURL, token: token)
                #expect(await stream.status == 200)
                open.append(stream)
            }
            let sixth = try await EventStreamReader.open(server.baseURL, token: token)
            #expect(await sixth.status == 429)
            #expect(await sixth.headers["retry-after"] != nil)
            #expect(await sixth.headers["content-type"]?.hasPrefix("application/problem+json") == true)
            #expect(await sixth.wait { $0.isClosed })
            #expect(await sixth.body.contains("\"code\":\"too_many_streams\""))
            // Another user is not held by this one's streams.
            let teacherToken = try await Self.token(server.baseURL, email: Self.teacherEmail, password: Self.teacherPassword)
            let teachers = try await EventStreamReader.open(server.baseURL, token: teacherToken)
            #expect(await teachers.status == 200)

            await open.removeFirst().close()
            let again = try await eventually(timeout: .seconds(5)) {
                let stream = try await EventStreamReader.open(server.baseURL, token: token)
                let status = await stream.status
                await stream.close()
                return status == 200
            }
            #expect(again)
            for stream in open { await stream.close() }
            await teachers.close()
        }
    }

    @Test("a password reset ends the stream with ended: session_ended, and the tenant's later changes reach it no more")
    func passwordResetEndsTheStream() async throws {
        try await Self.withDemoServer { server in
            let teacher = try await serverView(server.baseURL, email: Self.teacherEmail, password: Self.teacherPassword)
            let stream = try await EventStreamReader.open(server.baseURL, token: try await Self.token(server.baseURL))
            #expect(await stream.wait { $0.changed.count == 1 })

            let anonymous = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: "demo", retryPolicy: .none))
            let auth = AuthService(client: anonymous)
            try await auth.forgotPassword(email: Demo.studentEmail)
            let resetToken = try await mailedToken(kind: "reset_password", to: Demo.studentEmail, client: anonymous)
            try await auth.resetPassword(token: resetToken, newPassword: "Another-Secret-2027")

            #expect(await stream.wait(timeout: .seconds(2)) { $0.events.last?.type == "ended" && $0.isClosed })
            #expect(await stream.events.last?.data == "{\"reason\":\"session_ended\"}")
            let count = await stream.events.count
            _ = try await Self.rename(try await Self.teacherCourses(teacher).published, to: "Después del cambio", by: teacher)
            #expect(await !stream.wait(timeout: .milliseconds(500)) { $0.events.count > count })
        }
    }

    @Test("restoring a snapshot of the tenant sends every open stream an event, so its client pulls")
    func restoreAnnounces() async throws {
        try await Self.withDemoServer { server in
            let stream = try await EventStreamReader.open(server.baseURL, token: try await Self.token(server.baseURL))
            #expect(await stream.wait { $0.changed.count == 1 })
            let snapshot = try await server.snapshot(tenantID: "demo")
            #expect(await !stream.wait(timeout: .milliseconds(300)) { $0.changed.count > 1 })
            try await server.restore(snapshot)
            #expect(await stream.wait(timeout: .seconds(2)) { $0.changed.count == 2 })
            await stream.close()
        }
    }

    @Test("a restore sends every open stream reset, then a changed of the new timeline; an old-timeline Last-Event-ID gets reset at once")
    func restoreResetsStreams() async throws {
        try await Self.withDemoServer { server in
            let token = try await Self.token(server.baseURL)
            let stream = try await EventStreamReader.open(server.baseURL, token: token)
            #expect(await stream.wait { $0.changed.count == 1 })
            let oldID = try #require(await stream.changed.first?.id)
            let snapshot = try await server.snapshot(tenantID: "demo")

            try await server.restore(snapshot)

            // The open stream hears reset first, then a changed whose id is of the new timeline.
            #expect(await stream.wait(timeout: .seconds(5)) { $0.changed.count == 2 })
            let types = await stream.events.map(\.type)
            #expect(types == ["changed", "reset", "changed"], "\(types)")
            #expect(await stream.events.first { $0.type == "reset" }?.data == #"{"reason":"timeline_changed"}"#)
            let newID = try #require(await stream.changed.last?.id)
            #expect(newID != oldID)
            await stream.close()

            // Reconnecting with the old timeline's id: reset at once, then the new timeline's cursor.
            let old = try await EventStreamReader.open(server.baseURL, token: token, lastEventID: oldID)
            #expect(await old.wait(timeout: .seconds(2)) { $0.changed.count == 1 })
            #expect(await old.events.map(\.type) == ["reset", "changed"])
            #expect(await old.changed.first?.id == newID)
            await old.close()
            // The new timeline's id resumes quietly: nothing changed since.
            let current = try await EventStreamReader.open(server.baseURL, token: token, lastEventID: newID)
            #expect(await !current.wait(timeout: .milliseconds(800)) { !$0.events.isEmpty })
            await current.close()
        }
    }

    @Test("the stream ends with ended: token_expired when the access token it was opened with expires")
    func tokenExpiryEndsTheStream() async throws {
        try await Self.withDemoServer { server in
            let stream = try await EventStreamReader.open(server.baseURL, token: try await Self.token(server.baseURL))
            #expect(await stream.wait { $0.changed.count == 1 })
            try await server.advanceClock(by: .seconds(16 * 60))
            #expect(await stream.wait(timeout: .seconds(3)) { $0.isClosed })
            #expect(await stream.events.last?.data == "{\"reason\":\"token_expired\"}")
        }
    }

    @Test("the dev tenant list and /metrics count the open streams; a drop_request fault closes the stream's request")
    func streamsAreCountedAndFaultable() async throws {
        try await Self.withDemoServer { server in
            let token = try await Self.token(server.baseURL)
            let streams = [
                try await EventStreamReader.open(server.baseURL, token: token),
                try await EventStreamReader.open(server.baseURL, token: token),
            ]
            let tenants = try await plainGet(server.baseURL.appendingPathComponent("__dev/tenants"))
            let listing = try JSONSerialization.jsonObject(with: Data(tenants.utf8)) as? [String: Any]
            let demo = (listing?["items"] as? [[String: Any]])?.first { $0["id"] as? String == "demo" }
            #expect(demo?["open_streams"] as? Int == 2)
            let exposition = try await plainGet(server.baseURL.appendingPathComponent("metrics"))
            #expect(exposition.contains("edugo_event_streams_open 2"))
            #expect(exposition.contains("edugo_stream_events_sent_total 2"))
            for stream in streams { await stream.close() }

            try await server.inject(.dropRequest, path: "/v1/sync/events", tenantID: "demo")
            await #expect(throws: (any Error).self) {
                _ = try await EventStreamReader.open(server.baseURL, token: token)
            }
        }
    }

    @Test("a graceful shutdown with 100 open streams ends each with ended: shutdown and exits within seconds")
    func gracefulShutdownEndsEveryStream() async throws {
        try await Self.withDemoServer({ $0.events.maxStreamsPerUser = 100 }) { server in
            let token = try await Self.token(server.baseURL)
            var streams: [EventStreamReader] = []
            for _ in 0..<100 { streams.append(try await EventStreamReader.open(server.baseURL, token: token)) }
            for stream in streams { #expect(await stream.wait { $0.changed.count == 1 }) }
            let started = ContinuousClock.now
            await server.stop()
            #expect(ContinuousClock.now - started < .seconds(5))
            for stream in streams {
                #expect(await stream.wait(timeout: .seconds(2)) { $0.isClosed })
                #expect(await stream.events.last?.data == "{\"reason\":\"shutdown\"}")
            }
        }
    }
}
