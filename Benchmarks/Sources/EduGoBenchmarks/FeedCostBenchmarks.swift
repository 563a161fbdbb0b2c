@_spi(EduGoInternals) import EduGoSDK
import Foundation
import GRDB

/// What one pull of the change feed costs from the oldest retained cursor against a recent one,
/// with 100,000 rows in the tenant's change log (issue #41: a pull's cost follows its page, not
/// the log behind the cursor).
///
/// The server keeps its data in files, so the log is filled by writing its rows straight into
/// the demo tenant's database (renames of the learner's visible courses, round robin): filling it
/// through the API would take minutes. The learner's oldest cursor is the one its base sync ended
/// with before the rows were written.
struct FeedCostBenchmarks {
    let runs: Int
    let scratch: URL

    struct Result {
        var oldest: Measurement
        var recent: Measurement
        /// Requests a device at the oldest cursor needs to catch up.
        var catchUpRequests: Int
    }

    func run(logRows: Int = 100_000, requestsPerRun: Int = 20) async throws -> Result {
        let data = scratch.appendingPathComponent("feed-data", isDirectory: true)
        let server = try await BenchServer.start(storage: .directory(data))
        defer { Task { await server.stop() } }
        let learner = APIClient(configuration: APIConfiguration(baseURL: server.url, tenantID: "demo", retryPolicy: .none))
        try await AuthService(client: learner).login(email: "student1@demo.edugo.dev", password: "Demo-Student-2026")
        let oldest = try await pullToTheEnd(learner, from: nil).cursor

        try await fillLog(data.appendingPathComponent("tenants/demo.sqlite"), rows: logRows)
        let caughtUp = try await pullToTheEnd(learner, from: oldest)

        // Warm both paths, then time single pulls of each, interleaved.
        for cursor in [oldest, caughtUp.cursor] { _ = try await pull(learner, from: cursor) }
        var old: [Double] = []
        var recent: [Double] = []
        for _ in 0..<runs {
            for _ in 0..<requestsPerRun {
                old.append(try await seconds { _ = try await pull(learner, from: oldest) } * 1000)
                recent.append(try await seconds { _ = try await pull(learner, from: caughtUp.cursor) } * 1000)
            }
        }
        return Result(
            oldest: Measurement(name: "one pull from the oldest retained cursor (\(logRows) log rows)", unit: "ms", samples: old),
            recent: Measurement(name: "one pull from a recent cursor (same log)", unit: "ms", samples: recent),
            catchUpRequests: caughtUp.requests)
    }

    private struct Page: Decodable {
        var cursor: String
        var hasMore: Bool
    }

    private func pull(_ client: APIClient, from cursor: String?) async throws -> Page {
        let response = try await client.send(endpoint: .Sync.changes(cursor: cursor, limit: 500))
        guard response.statusCode == 200 else { throw BenchError.unexpected("pull answered \(response.statusCode)") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Page.self, from: response.body)
    }

    private func pullToTheEnd(_ client: APIClient, from start: String?) async throws -> (cursor: String, requests: Int) {
        var cursor = start
        var requests = 0
        while true {
            let page = try await pull(client, from: cursor)
            requests += 1
            cursor = page.cursor
            if !page.hasMore { return (page.cursor, requests) }
        }
    }

    /// Appends `rows` changes of the tenant's published courses to its change log, in one transaction.
    private func fillLog(_ file: URL, rows: Int) async throws {
        let database = try DatabasePool(path: file.path)
        defer { try? database.close() }
        try await database.write { db in
            let courses = try String.fetchAll(db, sql: "SELECT id FROM courses WHERE published = 1 ORDER BY id")
            guard !courses.isEmpty else { throw BenchError.unexpected("no published course") }
            let insert = try db.makeStatement(
                sql: "INSERT INTO changes (entity, entity_id, course_id, changed_at) VALUES ('course', ?, ?, ?)")
            let now = Date().timeIntervalSince1970
            for row in 0..<rows {
                let course = courses[row % courses.count]
                try insert.execute(arguments: [course, course, now])
            }
        }
    }
}
