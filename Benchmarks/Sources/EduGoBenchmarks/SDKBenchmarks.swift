// The outbox, the sync engine and the store's connection are not public API; the benchmarks
// measure them directly through the SDK's internal interface.
@_spi(EduGoInternals) import EduGoSDK
import Foundation
import GRDB

/// The SDK's costs, each next to the baseline that makes it meaningful.
struct SDKBenchmarks {
    let runs: Int
    let scratch: URL

    // MARK: Outbox enqueue vs raw insert

    func enqueueVersusInsert(count: Int) async throws -> (Measurement, Measurement) {
        let enqueue = try await repeated("outbox enqueue", unit: "ops/s", runs: runs) {
            let store = try OfflineStore.open(directory: scratch.appendingPathComponent(UUID().uuidString), tenantID: "bench", userID: "u")
            let outbox = Outbox(store: store)
            let body = Data(#"{"lesson_id":"l","watched_seconds":60}"#.utf8)
            let elapsed = try await seconds {
                for index in 0..<count {
                    try await outbox.enqueue(PendingWrite(
                        resource: .progress(course: "c", lesson: "\(index)"), operation: .update, endpoint: .Courses.putProgress("c"),
                        body: body, baseVersion: 1, baseJson: nil))
                }
            }
            return Double(count) / elapsed
        }
        let insert = try await repeated("raw GRDB insert", unit: "ops/s", runs: runs) {
            let path = scratch.appendingPathComponent("\(UUID().uuidString).sqlite").path
            let pool = try DatabasePool(path: path)
            try await pool.write { db in
                try db.execute(sql: "CREATE TABLE rows (id INTEGER PRIMARY KEY, resource TEXT, body BLOB)")
            }
            let body = Data(#"{"lesson_id":"l","watched_seconds":60}"#.utf8)
            let elapsed = try await seconds {
                for index in 0..<count {
                    try await pool.write { db in
                        try db.execute(sql: "INSERT INTO rows (resource, body) VALUES (?, ?)", arguments: ["progress/c/\(index)", body])
                    }
                }
            }
            return Double(count) / elapsed
        }
        return (enqueue, insert)
    }

    // MARK: Draining the outbox vs direct PUTs

    func drainVersusDirect(server: URL, writes: Int) async throws -> (Measurement, Measurement, Measurement) {
        let (courseID, lessonIDs) = try await makeCourse(server: server, lessons: writes)
        var learner = 0
        let drain = try await repeated("drain \(writes) queued writes", unit: "s", runs: runs) {
            learner += 1
            let email = try await makeLearner(server: server, index: learner, courseID: courseID)
            let client = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none))
            let user = try await AuthService(client: client).login(email: email, password: "Bench-Learner-2026")
            // The store belongs to the signed-in user's id (not the email): the engine sends a
            // store's writes only with its own user's token, and halts otherwise.
            let store = try OfflineStore.open(directory: scratch.appendingPathComponent(UUID().uuidString), tenantID: "demo", userID: user.id)
            let cache = ResponseCache(client: client, store: store)
            let monitor = ConnectivityMonitor { true }
            let engine = SyncEngine(client: client, store: store, monitor: monitor, cache: cache)
            for lesson in lessonIDs {
                try await engine.outbox.enqueue(PendingWrite(
                    resource: .progress(course: courseID, lesson: lesson), operation: .update, endpoint: .Courses.putProgress(courseID),
                    body: Data(#"{"lesson_id":"\#(lesson)","watched_seconds":90}"#.utf8), baseVersion: nil, baseJson: nil))
            }
            var report = SyncReport()
            let elapsed = await seconds { report = await engine.syncNow() }
            guard report.sent == writes, report.remaining == 0 else {
                throw BenchError.unexpected("drain: \(report), last error: \(engine.status.lastError ?? "none")")
            }
            return elapsed
        }
        // The same PUTs with an Idempotency-Key each, as the drain sends them: the server stores
        // every keyed answer for replay, which is work an unkeyed PUT does not cost.
        func direct(keyed: Bool) async throws -> Measurement {
            let name = "\(writes) sequential direct PUTs" + (keyed ? " with Idempotency-Key" : "")
            return try await repeated(name, unit: "s", runs: runs) {
                learner += 1
                let email = try await makeLearner(server: server, index: learner, courseID: courseID)
                let client = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none))
                try await AuthService(client: client).login(email: email, password: "Bench-Learner-2026")
                return try await seconds {
                    for lesson in lessonIDs {
                        let headers = keyed ? ["Idempotency-Key": UUID().uuidString.lowercased()] : [:]
                        let _: LessonProgress = try await client.execute(
                            endpoint: .Courses.putProgress(courseID), body: ProgressUpdate(lessonId: lesson, watchedSeconds: 90),
                            headers: headers)
                    }
                }
            }
        }
        return (drain, try await direct(keyed: false), try await direct(keyed: true))
    }

    // MARK: Cache hits vs a round trip

    func cacheLatency(server: URL, iterations: Int) async throws -> [Measurement] {
        let client = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none))
        let user = try await AuthService(client: client).login(email: "student1@demo.edugo.dev", password: "Demo-Student-2026")
        // The signed-in user's store: the cache fetches only with its own user's token.
        let store = try OfflineStore.open(directory: scratch.appendingPathComponent(UUID().uuidString), tenantID: "demo", userID: user.id)
        let warm = ResponseCache(client: client, store: store)
        let page: Page<Course> = try await warm.fetchJSON(.Courses.list(limit: 1), policy: .networkOnly)
        guard let id = page.items.first?.id else { throw BenchError.unexpected("no course") }
        let endpoint = Endpoint.Courses.get(id)
        _ = try await warm.fetch(endpoint, policy: .networkOnly)

        func perRequest(_ name: String, _ body: () async throws -> Void) async throws -> Measurement {
            try await repeated(name, unit: "µs", runs: runs) {
                let elapsed = try await seconds { for _ in 0..<iterations { try await body() } }
                return elapsed / Double(iterations) * 1e6
            }
        }
        let memory = try await perRequest("cache hit, memory") {
            guard try await warm.fetch(endpoint, policy: .cacheFirst).source == .memory else { throw BenchError.unexpected("not memory") }
        }
        let disk = try await perRequest("cache hit, disk") {
            // A new cache on the same store has an empty memory layer: the hit comes from SQLite.
            let cold = ResponseCache(client: client, store: store)
            guard try await cold.fetch(endpoint, policy: .cacheFirst).source == .disk else { throw BenchError.unexpected("not disk") }
        }
        let network = try await perRequest("network round trip (GET /v1/courses/{id})") {
            _ = try await client.send(endpoint: endpoint)
        }
        return [memory, disk, network]
    }

    // MARK: Cold open

    func coldOpen(rows: Int) async throws -> Measurement {
        let directory = scratch.appendingPathComponent(UUID().uuidString)
        let session = try OfflineStore.open(directory: directory, tenantID: "bench", userID: "u")
        try await session.writer.write { db in
            let now = Date()
            for index in 0..<rows {
                let json = #"{"id":"c\#(index)","title":"Curso \#(index)","description":"","category":"science","thumbnail_url":null,"published":true,"teacher_id":"t","lesson_count":5,"version":1,"created_at":"2026-11-22T00:00:00Z","updated_at":"2026-11-22T00:00:00Z"}"#
                try db.execute(
                    sql: "INSERT INTO entities (kind, id, parent_id, sort_key, json, version, fetched_at) VALUES ('course', ?, NULL, ?, ?, 1, ?)",
                    arguments: ["c\(index)", String(format: "%08d", index), Data(json.utf8), now])
            }
        }
        try (session.writer as? DatabasePool)?.close()
        return try await repeated("cold open + read \(rows) cached courses", unit: "ms", runs: runs) {
            try await seconds {
                let store = try OfflineStore.open(directory: directory, tenantID: "bench", userID: "u")
                let count = try await store.writer.read { db in
                    try Row.fetchAll(db, sql: "SELECT json FROM entities WHERE kind = 'course' ORDER BY sort_key").count
                }
                guard count == rows else { throw BenchError.unexpected("read \(count)") }
                try (store.writer as? DatabasePool)?.close()
            } * 1000
        }
    }

    // MARK: Fixtures

    private func makeCourse(server: URL, lessons: Int) async throws -> (String, [String]) {
        let admin = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none))
        try await AuthService(client: admin).login(email: "admin@demo.edugo.dev", password: "Demo-Admin-2026")
        let course: Course = try await admin.execute(
            endpoint: .Courses.create, body: ["title": "Benchmark course", "category": "science", "published": "true"].json)
        var ids: [String] = []
        for index in 0..<lessons {
            let lesson: Lesson = try await admin.execute(
                endpoint: .Courses.createLesson(course.id), body: ["title": "Lección \(index + 1)"].json)
            ids.append(lesson.id)
        }
        return (course.id, ids)
    }

    private func makeLearner(server: URL, index: Int, courseID: String) async throws -> String {
        let admin = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none))
        try await AuthService(client: admin).login(email: "admin@demo.edugo.dev", password: "Demo-Admin-2026")
        let email = "bench\(index)-\(UUID().uuidString.prefix(8).lowercased())@demo.edugo.dev"
        let _: User = try await admin.execute(
            endpoint: .Users.create,
            body: ["email": email, "password": "Bench-Learner-2026", "first_name": "Bench", "last_name": "Learner", "role": "student"].json)
        let learner = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none))
        try await AuthService(client: learner).login(email: email, password: "Bench-Learner-2026")
        let _: Enrollment = try await learner.execute(endpoint: .Courses.enroll(courseID))
        return email
    }
}

/// A JSON object body from string members ("true"/"false"/digits become JSON literals).
struct JSONBody: Encodable, Sendable {
    let members: [String: String]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in members {
            let key = Key(stringValue: name)
            if let bool = Bool(value) { try container.encode(bool, forKey: key) }
            else if let int = Int(value) { try container.encode(int, forKey: key) }
            else { try container.encode(value, forKey: key) }
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension Dictionary where Key == String, Value == String {
    var json: JSONBody { JSONBody(members: self) }
}

extension JSONEncoder {
    static func snake(_ members: [String: String]) -> Data {
        (try? JSONEncoder().encode(JSONBody(members: members))) ?? Data()
    }
}
