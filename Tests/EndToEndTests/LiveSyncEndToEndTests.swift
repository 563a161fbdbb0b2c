import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import Synchronization
import Testing

/// Two devices of one learner, both running: what one records reaches the other through the live
/// stream, without any read call, and nothing is lost while the stream is cut.
@Suite(.serialized, .timeLimit(.minutes(5))) struct LiveSyncEndToEndTests {
    /// A device: an offline-first client over AsyncHTTPClient (a transport that streams), whose
    /// periodic fallback pull is too rare to matter in a test, so only the stream can deliver.
    static func device(_ server: URL, _ directory: URL, name: String) throws -> EduGoClient {
        var configuration = APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none, readRefresh: patientReads)
        configuration.fallbackPullInterval = .seconds(24 * 3600)
        return EduGoClient(
            configuration: configuration, dataDirectory: directory.appendingPathComponent(name, isDirectory: true),
            transport: try AsyncHTTPClientTransport(), environment: fastEnvironment)
    }

    /// The enrolled course and a lesson of it that both devices write to.
    static func target(_ session: OfflineSession) async throws -> (course: String, lessons: [String]) {
        let enrolled = try await session.enrollment.enrolledCourseIDs().value
        let course = try #require(enrolled.sorted().first)
        let lessons = try await session.courses.lessons(courseID: course).value.map(\.id)
        return (course, lessons)
    }

    @Test("device A records progress; device B's observe() delivers it within a second with no read call")
    func progressReachesTheOtherDevice() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let a = try await Self.device(server.baseURL, root, name: "a").signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            let b = try await Self.device(server.baseURL, root, name: "b").signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            #expect(await a.engine.syncNow().pullError == nil)
            #expect(await b.engine.syncNow().pullError == nil)
            let (course, lessons) = try await Self.target(a)
            let lesson = try #require(lessons.first)
            let runA = Task { await a.run() }
            let runB = Task { await b.run() }
            #expect(try await eventually(timeout: .seconds(10)) { b.engine.isLiveStreamHeld })

            let seen = Task { () -> ContinuousClock.Instant? in
                for try await progress in b.progress.observe(courseID: course) {
                    if progress.value.contains(where: { $0.lessonId == lesson && $0.watchedSeconds == 4321 }) { return .now }
                }
                return nil
            }
            let started = ContinuousClock.now
            try await a.progress.record(courseID: course, lessonID: lesson, watchedSeconds: 4321)
            let deadline = Task {
                try await Task.sleep(for: .seconds(3))
                seen.cancel()
            }
            let arrived = try await seen.value
            deadline.cancel()
            let delay = try #require(arrived.map { $0 - started })
            #expect(delay < .seconds(1), "B saw A's progress after \(delay)")

            // Cancelling run() closes the stream: the server counts none open for the tenant.
            runA.cancel()
            runB.cancel()
            await runA.value
            await runB.value
            #expect(try await eventually(timeout: .seconds(5)) { try await Self.openStreams(server) == 0 })
            await server.shutdown()
        }
    }

    @Test("observe() of one course emits once for a pulled change to it, and not for a pulled change to another course")
    func observationEmitsOnlyForWhatItWatches() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let a = try await Self.device(server.baseURL, root, name: "a").signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            let b = try await Self.device(server.baseURL, root, name: "b").signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            #expect(await a.engine.syncNow().pullError == nil)
            #expect(await b.engine.syncNow().pullError == nil)
            let enrolled = try await a.enrollment.enrolledCourseIDs().value.sorted()
            try #require(enrolled.count >= 2)
            let (watched, other) = (enrolled[0], enrolled[1])
            let watchedLesson = try #require(try await a.courses.lessons(courseID: watched).value.first?.id)
            let otherLesson = try #require(try await a.courses.lessons(courseID: other).value.first?.id)
            let runB = Task { await b.run() }
            #expect(try await eventually(timeout: .seconds(10)) { b.engine.isLiveStreamHeld })

            let emissions = Mutex<[[LessonProgress]]>([])
            let observing = Task {
                for try await value in b.progress.observe(courseID: watched) { emissions.withLock { $0.append(value.value) } }
            }
            #expect(try await eventually(timeout: .seconds(5)) { emissions.withLock { $0.count } == 1 })
            var changes = b.engine.remoteChanges().makeAsyncIterator()

            // A change in another course is pulled and applied, and the observation stays quiet.
            // (Watch times above the demo seed's, which go up to 1,380 s: a smaller one would be raised
            // to the seeded value and change nothing.)
            try await a.progress.record(courseID: other, lessonID: otherLesson, watchedSeconds: 4_111)
            #expect(await a.engine.syncNow().remaining == 0)
            let pulledOther = await changes.next()
            #expect(pulledOther?.contains { $0.type == "progress" && $0.id == otherLesson } == true)
            try await Task.sleep(for: .milliseconds(300))
            #expect(emissions.withLock { $0.count } == 1)

            // A change in the watched course is emitted, once.
            try await a.progress.record(courseID: watched, lessonID: watchedLesson, watchedSeconds: 4_222)
            #expect(await a.engine.syncNow().remaining == 0)
            #expect(try await eventually(timeout: .seconds(5)) { emissions.withLock { $0.count } == 2 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(emissions.withLock { $0.count } == 2)
            #expect(emissions.withLock { $0.last }?.contains { $0.lessonId == watchedLesson && $0.watchedSeconds == 4_222 } == true)

            observing.cancel()
            runB.cancel()
            await runB.value
            await server.shutdown()
        }
    }

    /// The live streams the server holds for the demo tenant (`GET /__dev/tenants`).
    static func openStreams(_ server: EduGoTestServer) async throws -> Int {
        let listing = try await plainGet(server.baseURL.appendingPathComponent("__dev/tenants"))
        let object = try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [String: Any]
        let demo = (object?["items"] as? [[String: Any]])?.first { $0["id"] as? String == "demo" }
        return demo?["open_streams"] as? Int ?? -1
    }

    /// A transport that sends requests but cannot stream (as a custom app transport may be).
    struct SendOnlyTransport: HTTPTransport {
        let base: AsyncHTTPClientTransport
        func send(_ request: APIRequest) async throws -> APIResponse { try await base.send(request) }
    }

    @Test("over a transport that cannot stream, a running session pulls every fallbackPullInterval instead")
    func fallsBackToPeriodicPulls() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let a = try await Self.device(server.baseURL, root, name: "a").signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            var configuration = APIConfiguration(baseURL: server.baseURL, tenantID: "demo", retryPolicy: .none, readRefresh: patientReads)
            configuration.fallbackPullInterval = .seconds(10)  // 0.2 s in the fast environment
            let b = try await EduGoClient(
                configuration: configuration, dataDirectory: root.appendingPathComponent("b"),
                transport: SendOnlyTransport(base: try AsyncHTTPClientTransport()), environment: fastEnvironment
            ).signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            #expect(await a.engine.syncNow().pullError == nil)
            #expect(await b.engine.syncNow().pullError == nil)
            let (course, lessons) = try await Self.target(a)
            let lesson = try #require(lessons.first)
            let runB = Task { await b.run() }
            try await a.progress.record(courseID: course, lessonID: lesson, watchedSeconds: 2468)
            #expect(await a.engine.syncNow().remaining == 0)
            let arrived = try await eventually(timeout: .seconds(10)) {
                var values = b.progress.observe(courseID: course).makeAsyncIterator()
                let local = try await values.next()?.value ?? []
                return local.contains { $0.lessonId == lesson && $0.watchedSeconds == 2468 }
            }
            #expect(arrived)
            #expect(!b.engine.isLiveStreamHeld)
            #expect(try await Self.openStreams(server) == 0)
            runB.cancel()
            await runB.value
            await server.shutdown()
        }
    }

    @Test("B's stream is cut by a server restart while A makes 20 changes; once B reconnects it has all 20")
    func nothingIsLostWhileTheStreamIsCut() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let a = try await Self.device(server.baseURL, root, name: "a").signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            let b = try await Self.device(server.baseURL, root, name: "b").signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            #expect(await a.engine.syncNow().pullError == nil)
            #expect(await b.engine.syncNow().pullError == nil)
            let (course, lessons) = try await Self.target(a)
            let runB = Task { await b.run() }
            #expect(try await eventually(timeout: .seconds(10)) { b.engine.isLiveStreamHeld })

            await server.stop()
            #expect(try await eventually(timeout: .seconds(10)) { !b.engine.isLiveStreamHeld })
            // A writes while B is cut off: queued on A, sent once the server is back.
            for index in 0..<20 {
                try await a.progress.record(
                    courseID: course, lessonID: lessons[index % lessons.count], watchedSeconds: 1000 + index)
            }
            try await server.restart()
            let drained = await a.engine.syncNow()
            #expect(drained.remaining == 0)
            #expect(drained.sent > 0)

            let expected = Dictionary(
                (0..<20).map { (lessons[$0 % lessons.count], 1000 + $0) }, uniquingKeysWith: { max($0, $1) })
            let converged = try await eventually(timeout: .seconds(20)) {
                // The observation's first value reads the store only: no refresh, no request.
                var values = b.progress.observe(courseID: course).makeAsyncIterator()
                let local = try await values.next()?.value ?? []
                let watched = Dictionary(local.map { ($0.lessonId, $0.watchedSeconds) }, uniquingKeysWith: { $1 })
                return expected.allSatisfy { watched[$0.key] == $0.value }
            }
            #expect(converged)
            #expect(b.engine.isLiveStreamHeld)
            runB.cancel()
            await runB.value
            await server.shutdown()
        }
    }
}
