@_spi(EduGoInternals) import EduGoSDK
import Foundation
import Synchronization

/// What catching up costs: the change feed's pull against re-reading the lists, in requests,
/// bytes and time.
struct SyncBenchmarks {
    let runs: Int
    let scratch: URL

    /// Requests and response bytes that reached a client.
    final class Meter: HTTPTransport {
        let base: any HTTPTransport
        private let counts = Mutex<(requests: Int, bytes: Int)>((0, 0))

        init(base: any HTTPTransport) { self.base = base }

        func send(_ request: APIRequest) async throws -> APIResponse {
            let response = try await base.send(request)
            counts.withLock { $0.requests += 1; $0.bytes += response.body.count }
            return response
        }

        func reset() { counts.withLock { $0 = (0, 0) } }
        var requests: Int { counts.withLock { $0.requests } }
        var bytes: Int { counts.withLock { $0.bytes } }
    }

    struct CatchUp {
        var fillRequests = 0, fillBytes = 0, pullRequests = 0, pullBytes = 0, listRequests = 0, listBytes = 0
    }

    /// A catalogue of `courses` courses; a learner fills their store, a teacher makes six kinds of
    /// change, and the learner catches up by pulling, then (for comparison) by paging the list again.
    func catchUp(server: URL, courses: Int) async throws -> CatchUp {
        let teacher = try await signedIn(server, "teacher1@demo.edugo.dev", "Demo-Teacher-2026")
        var created: [Course] = []
        for index in 0..<courses {
            created.append(try await teacher.execute(
                endpoint: .Courses.create,
                body: ["title": "Curso \(index)", "description": String(repeating: "Texto del curso. ", count: 12),
                       "category": "science", "published": "true"].json))
        }
        let meter = Meter(base: APIConfiguration(baseURL: server, tenantID: "demo").makeDefaultTransport())
        let client = EduGoClient(
            configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none),
            dataDirectory: scratch.appendingPathComponent(UUID().uuidString), transport: meter)
        let session = try await client.signIn(email: "student1@demo.edugo.dev", password: "Demo-Student-2026")
        var result = CatchUp()
        meter.reset()
        let fill = await session.engine.syncNow()
        guard fill.pullError == nil else { throw BenchError.unexpected("fill: \(String(describing: fill.pullError))") }
        (result.fillRequests, result.fillBytes) = (meter.requests, meter.bytes)

        // Six kinds of change: rename, unpublish, delete, a new course, a lesson renamed, a lesson deleted.
        let lessoned = created[3]
        let first: Lesson = try await teacher.execute(endpoint: .Courses.createLesson(lessoned.id), body: ["title": "Uno"].json)
        let second: Lesson = try await teacher.execute(endpoint: .Courses.createLesson(lessoned.id), body: ["title": "Dos"].json)
        _ = await session.engine.syncNow()
        let _: Course = try await teacher.execute(
            endpoint: .Courses.update(created[0].id), body: ["title": "Renombrado", "version": "1"].json)
        let _: Course = try await teacher.execute(
            endpoint: .Courses.update(created[1].id), body: ["published": "false", "version": "1"].json)
        try await teacher.perform(endpoint: .Courses.delete(created[2].id))
        let _: Course = try await teacher.execute(
            endpoint: .Courses.create, body: ["title": "Nuevo", "category": "science", "published": "true"].json)
        let _: Lesson = try await teacher.execute(
            endpoint: .Courses.updateLesson(lessoned.id, first.id), body: ["title": "Uno bis", "version": "1"].json)
        try await teacher.perform(endpoint: .Courses.deleteLesson(lessoned.id, second.id))

        meter.reset()
        let pull = await session.engine.syncNow()
        guard pull.pullError == nil else { throw BenchError.unexpected("pull: \(String(describing: pull.pullError))") }
        (result.pullRequests, result.pullBytes) = (meter.requests, meter.bytes)

        // What a refresh did before the feed: every page of the course list.
        let lister = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none), transport: meter)
        try await AuthService(client: lister).login(email: "student1@demo.edugo.dev", password: "Demo-Student-2026")
        meter.reset()
        var page = 1
        var seen = 0
        while true {
            let answer: Page<Course> = try await lister.execute(endpoint: .Courses.list(page: page, limit: 100))
            seen += answer.items.count
            if seen >= (answer.total ?? 0) || answer.items.isEmpty { break }
            page += 1
        }
        (result.listRequests, result.listBytes) = (meter.requests, meter.bytes)
        return result
    }

    /// Seconds to pull and apply a base sync of at least `lessons` lessons into an empty store.
    func pullAndApply(server: URL, lessons: Int) async throws -> (Measurement, changes: Int) {
        let teacher = try await signedIn(server, "teacher1@demo.edugo.dev", "Demo-Teacher-2026")
        let course: Course = try await teacher.execute(
            endpoint: .Courses.create, body: ["title": "Muchas lecciones", "category": "science", "published": "true"].json)
        for index in 0..<lessons {
            let _: Lesson = try await teacher.execute(endpoint: .Courses.createLesson(course.id), body: ["title": "Lección \(index)"].json)
        }
        var changes = 0
        let measurement = try await repeated("pull + apply a base sync of \(lessons)+ changes", unit: "s", runs: runs) {
            let (elapsed, pulled) = try await newDeviceSync(server: server, expecting: lessons)
            changes = pulled
            return elapsed
        }
        return (measurement, changes)
    }

    /// A catalogue of `courses` courses with `lessonsPerCourse` lessons each, read by a new device:
    /// one base sync against paging through the course list and each course's lessons.
    func baseSyncVersusPaging(server: URL, courses: Int, lessonsPerCourse: Int) async throws -> (Measurement, Measurement) {
        let teacher = try await signedIn(server, "teacher1@demo.edugo.dev", "Demo-Teacher-2026")
        for index in 0..<courses {
            let course: Course = try await teacher.execute(
                endpoint: .Courses.create, body: ["title": "Catálogo \(index)", "category": "science", "published": "true"].json)
            for lesson in 0..<lessonsPerCourse {
                let _: Lesson = try await teacher.execute(
                    endpoint: .Courses.createLesson(course.id), body: ["title": "Lección \(lesson)"].json)
            }
        }
        let base = try await repeated("base sync of \(courses) courses and \(courses * lessonsPerCourse) lessons", unit: "s", runs: runs) {
            try await newDeviceSync(server: server, expecting: courses * (1 + lessonsPerCourse)).seconds
        }
        let paging = try await repeated("the same through the list endpoints (every course page, every course's lessons)", unit: "s", runs: runs) {
            let learner = try await signedIn(server, "student1@demo.edugo.dev", "Demo-Student-2026")
            return try await seconds {
                var after: String?
                var courseIDs: [String] = []
                repeat {
                    let page: Page<Course> = try await learner.execute(endpoint: .Courses.list(limit: 100, after: after))
                    courseIDs += page.items.map(\.id)
                    after = page.next
                } while after != nil
                for id in courseIDs {
                    let _: LessonList = try await learner.execute(endpoint: .Courses.lessons(id))
                }
                guard courseIDs.count >= courses else { throw BenchError.unexpected("listed \(courseIDs.count)") }
            }
        }
        return (base, paging)
    }

    /// A new device of student1 syncs once: the seconds its base sync took and how many changes it pulled.
    private func newDeviceSync(server: URL, expecting minimum: Int) async throws -> (seconds: Double, pulled: Int) {
        let client = EduGoClient(
            configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none),
            dataDirectory: scratch.appendingPathComponent(UUID().uuidString))
        let session = try await client.signIn(email: "student1@demo.edugo.dev", password: "Demo-Student-2026")
        var report = SyncReport()
        let elapsed = await seconds { report = await session.engine.syncNow() }
        guard report.pullError == nil, report.pulled >= minimum else { throw BenchError.unexpected("pulled \(report.pulled)") }
        return (elapsed, report.pulled)
    }

    private func signedIn(_ server: URL, _ email: String, _ password: String) async throws -> APIClient {
        let client = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none))
        try await AuthService(client: client).login(email: email, password: password)
        return client
    }
}
