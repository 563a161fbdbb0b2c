import BenchSupport
import Foundation
import GRDB
import Hummingbird

/// The ceiling of our stack: plain Hummingbird serving the same JSON shape as
/// `GET /v1/courses?limit=20` from memory (`/courses`) and as the newest 20 published rows of a
/// GRDB table (`/courses-db`, indexed on its order), and a `/health` — no auth, no tenancy, no
/// headers. `--rows N` sizes the table (default 20), so a catalogue of N courses is compared with
/// a baseline of the same size. Prints `BENCH_PORT=<port>`.
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
        let arguments = CommandLine.arguments
        let count = arguments.firstIndex(of: "--rows").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? 20
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let rows = (0..<max(20, count)).map { index in
            let created = start.addingTimeInterval(Double(index)).ISO8601Format()
            return CourseRow(
                id: UUID().uuidString.lowercased(), title: "Curso \(index)", description: "Descripción del curso \(index).",
                category: "science", thumbnail_url: nil, published: index % 10 != 0 || count <= 20,
                teacher_id: UUID().uuidString.lowercased(), lesson_count: 6, version: 1, created_at: created,
                updated_at: created)
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
            try db.create(index: "courses_published_created", on: "courses", columns: ["published", "created_at", "id"])
            for row in rows { try row.insert(db) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let newest = Array(rows.filter(\.published).sorted { ($0.created_at, $0.id) > ($1.created_at, $1.id) }.prefix(20))
        let memoryBody = try encoder.encode(Page(items: newest, total: newest.count))

        let router = Router()
        router.get("/health") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        router.get("/courses") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: memoryBody)))
        }
        router.get("/courses-db") { _, _ in
            let rows = try await database.read { db in
                try CourseRow.filter(Column("published") == true)
                    .order(Column("created_at").desc, Column("id").desc).limit(20).fetchAll(db)
            }
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
