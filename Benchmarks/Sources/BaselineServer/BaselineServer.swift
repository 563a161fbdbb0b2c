import BenchSupport
import Foundation
import GRDB
import Hummingbird

/// The ceiling of our stack: plain Hummingbird serving the same JSON shape as
/// `GET /v1/courses?limit=20` from memory (`/courses`) and from 20 GRDB rows (`/courses-db`), and
/// a `/health` — no auth, no tenancy, no headers. Prints `BENCH_PORT=<port>`.
@main
struct BaselineServer {
    struct CourseRow: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "courses"
        var id: String
        var title: String
        var description: String
        var category: String
        var thumbnail_url: String?
        var published: Bool
        var teacher_id: String
        var lesson_count: Int
        var version: Int
        var created_at: String
        var updated_at: String
    }

    struct Page: Encodable {
        var items: [CourseRow]
        var page = 1
        var limit = 20
        var total: Int
    }

    static func main() throws {
        try BlockingMain.run(serve)
    }

    static func serve() async throws {
        let database = try DatabaseQueue(path: FileManager.default.temporaryDirectory
            .appendingPathComponent("baseline-\(UUID().uuidString).sqlite").path)
        let rows = (0..<20).map { index in
            CourseRow(
                id: UUID().uuidString.lowercased(), title: "Curso \(index)", description: "Descripción del curso \(index).",
                category: "science", thumbnail_url: nil, published: true, teacher_id: UUID().uuidString.lowercased(),
                lesson_count: 6, version: 1, created_at: "2026-11-22T00:00:00Z", updated_at: "2026-11-22T00:00:00Z")
        }
        try await database.write { db in
            try db.create(table: "courses") { t in
                t.primaryKey("id", .text)
                for column in ["title", "description", "category", "teacher_id", "created_at", "updated_at"] {
                    t.column(column, .text).notNull()
                }
                t.column("thumbnail_url", .text)
                t.column("published", .boolean).notNull()
                t.column("lesson_count", .integer).notNull()
                t.column("version", .integer).notNull()
            }
            for row in rows { try row.insert(db) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let memoryBody = try encoder.encode(Page(items: rows, total: rows.count))

        let router = Router()
        router.get("/health") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        router.get("/courses") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: memoryBody)))
        }
        router.get("/courses-db") { _, _ in
            let rows = try await database.read { db in try CourseRow.order(Column("created_at").desc).limit(20).fetchAll(db) }
            let body = try encoder.encode(Page(items: rows, total: rows.count))
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                print("BENCH_PORT=\(channel.localAddress?.port ?? 0)")
                fflush(nil)
            })
        try await app.runService()
    }
}
