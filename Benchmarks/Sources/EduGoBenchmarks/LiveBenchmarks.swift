@_spi(EduGoInternals) import EduGoSDK
import Foundation

/// How fast a change made on one device reaches another through the live stream.
struct LiveBenchmarks {
    let scratch: URL

    /// Two running sessions of one learner (AsyncHTTPClient, the transport that streams; periodic
    /// pulls too rare to matter). For each of `writes` progress writes committed by a plain PUT, the
    /// time from sending the PUT to the value reaching device B's `observe()` sequence. Writes are
    /// spaced `spacing` apart, as a learner's are, so that each event stands on its own rather
    /// than waiting out the previous one's 50 ms coalescing window.
    func propagation(server: URL, writes: Int, spacing: Duration = .milliseconds(100)) async throws -> [Double] {
        var configuration = APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none)
        configuration.fallbackPullInterval = .seconds(24 * 3600)
        let device = EduGoClient(
            configuration: configuration, dataDirectory: scratch.appendingPathComponent(UUID().uuidString),
            transport: try AsyncHTTPClientTransport())
        let b = try await device.signIn(email: "student1@demo.edugo.dev", password: "Demo-Student-2026")
        _ = await b.engine.syncNow()
        let writer = APIClient(configuration: configuration, transport: try AsyncHTTPClientTransport())
        try await AuthService(client: writer).login(email: "student1@demo.edugo.dev", password: "Demo-Student-2026")
        let enrolled: Page<EnrolledCourse> = try await writer.execute(endpoint: .Users.myCourses())
        guard let course = enrolled.items.first?.course.id else { throw BenchError.unexpected("no enrolled course") }
        let lessons: LessonList = try await writer.execute(endpoint: .Courses.lessons(course))
        guard let lesson = lessons.items.first?.id else { throw BenchError.unexpected("no lesson") }

        let running = Task { await b.run() }
        defer { running.cancel() }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while !b.engine.isLiveStreamHeld {
            guard clock.now < deadline else { throw BenchError.unexpected("the live stream was not held") }
            try await Task.sleep(for: .milliseconds(10))
        }
        var latencies: [Double] = []
        var observed = b.progress.observe(courseID: course).makeAsyncIterator()
        for index in 0..<writes {
            let seconds = 10_000 + index
            let sent = clock.now
            let _: LessonProgress = try await writer.execute(
                endpoint: .Courses.putProgress(course), body: ["lesson_id": lesson, "watched_seconds": "\(seconds)"].json,
                headers: ["If-Match": "*"])
            while let value = try await observed.next() {
                if value.value.contains(where: { $0.lessonId == lesson && $0.watchedSeconds == seconds }) { break }
            }
            latencies.append((clock.now - sent).timeInterval * 1000)
            try await Task.sleep(for: spacing)
        }
        return latencies
    }
}

extension Duration {
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
