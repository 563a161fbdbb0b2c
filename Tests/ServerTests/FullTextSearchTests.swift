import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Course and user search through the FTS5 search tables: what a query finds, that a write is
/// searchable at once, that no input is query syntax, and that old databases get their index.
@Suite(.timeLimit(.minutes(3))) struct FullTextSearchTests {
    /// `q` percent-encoded for a query string.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    static func titles(_ client: any TestClientProtocol, _ query: String, as caller: Caller) async throws -> [String] {
        try client.expectOK(
            PageBody<CourseBody>.self, try await client.get("/v1/courses/search?q=\(encoded(query))", as: caller), query
        ).items.map(\.title)
    }

    @Test(
        "search finds a course by its accented and unaccented forms, in any case, and by the beginning of its last word",
        arguments: ["matematicas", "Matemáticas", "MATEMÁTICAS", "matemat", "matemá", "Matemáticas básicas", "matematicas basi"])
    func accentsAndPrefixes(_ query: String) async throws {
        try await withServer { client in
            // Given a student, and the seeded "Matemáticas básicas"
            let student = try await client.caller(.demoStudent)

            // When they search for a form of its title
            let titles = try await Self.titles(client, query, as: student)

            // Then it is the one course found
            #expect(titles == [SeededCourse.matematicas])
        }
    }

    @Test("only the last word matches as a beginning: every other word must be whole")
    func onlyTheLastWordIsAPrefix() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            #expect(try await Self.titles(client, "matemat basicas", as: student).isEmpty)
            #expect(try await Self.titles(client, "matematicas basicas", as: student) == [SeededCourse.matematicas])
        }
    }

    @Test("a course created, renamed or deleted is found, or not, by the very next search")
    func writesAreSearchableAtOnce() async throws {
        try await withServer { client in
            // Given a teacher and a student
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)

            // When the teacher creates a course, the next search finds it
            let course = try await client.createCourse(as: teacher, title: "Óptica geométrica", published: true)
            #expect(try await Self.titles(client, "optica", as: student) == ["Óptica geométrica"])

            // When they rename it, the old title no longer finds it and the new one does
            let renamed = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "Acústica", "version": course.version])
            #expect(renamed.status == .ok, "\(renamed.text)")
            #expect(try await Self.titles(client, "optica", as: student).isEmpty)
            #expect(try await Self.titles(client, "acustica", as: student) == ["Acústica"])

            // When they delete it, nothing finds it
            #expect(try await client.delete("/v1/courses/\(course.id)", as: teacher).status == .noContent)
            #expect(try await Self.titles(client, "acustica", as: student).isEmpty)
        }
    }

    @Test("a user's new name and email are found by the very next user search")
    func userWritesAreSearchableAtOnce() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let created = try await client.send(
                .post, "/v1/users", as: admin,
                body: [
                    "email": "ines.nunez@demo.edugo.dev", "password": "Nuevo-Alumno-2026", "first_name": "Inés",
                    "last_name": "Núñez", "role": "student",
                ])
            #expect(created.status == .created, "\(created.text)")

            for query in ["nunez", "Inés Núñez", "ines.nunez@demo", "ines.nunez@demo.edugo.dev"] {
                let page = try client.expectOK(
                    PageBody<UserBody>.self, try await client.get("/v1/users/search?q=\(Self.encoded(query))", as: admin),
                    query)
                #expect(page.items.map(\.email) == ["ines.nunez@demo.edugo.dev"], "\(query)")
            }
        }
    }

    /// Strings that are FTS5 query syntax, or close to it, and other awkward input.
    static let hostile = [
        "\"", "\"\"", "\"a", "a\"b", "*", "a*", "**", "-", "-a", "a -b", "NEAR", "NEAR(a b)", "NEAR(a b, 2)",
        "a NEAR b", "AND", "OR", "NOT", "a AND b", "a OR b", "a NOT b", "(", ")", "(a", "a)", ":", "title:a",
        "title : a", "{title description}: a", "^a", "a^", "+", "a + b", "'", "';DROP TABLE courses;--", "\\",
        "%", "_", "%_%", "\u{0}", "a\u{0}b", "😀", "ﷺ", "\u{301}", "a\u{301}", "ǆ", "İ", "ß", String(repeating: "\"", count: 200),
        String(repeating: "a ", count: 100), String(repeating: "NEAR(", count: 40), "rank:1", "rowid", "* OR *",
    ]

    @Test("hostile search strings answer 200 or 400, never a server error", arguments: [
        "/v1/courses/search?q=", "/v1/courses/search?category=science&q=", "/v1/users/search?q=", "/v1/users?q=",
    ])
    func hostileQueries(_ path: String) async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            for query in Self.hostile {
                let response = try await client.get(path + Self.encoded(query), as: admin)
                #expect([.ok, .badRequest].contains(response.status), "\(query.debugDescription): \(response.text)")
            }
        }
    }

    @Test("the match expression quotes every word and marks only the last as a prefix")
    func matchExpression() {
        #expect(FullTextQuery.expression("matemáticas básicas") == "\"matemáticas\" \"básicas\"*")
        #expect(FullTextQuery.expression("a\"b NEAR(x") == "\"a\"\"b\" \"NEAR(x\"*")
        #expect(FullTextQuery.expression("- * %") == nil)
        #expect(FullTextQuery.expression("ada@example.com") == "\"ada@example.com\"*")
        #expect(FullTextQuery.expression("a\u{0}b") == "\"a\" \"b\"*", "a NUL separates words")
    }

    @Test("every search table merges its segments two at a time (automerge 2), so a search reads fewer of them")
    func searchTablesMergeSooner() async throws {
        // Given a tenant database as the server makes it
        let database = try await TenantStoreTests.demoTenant()

        // Then each search table's automerge is the store's, not FTS5's default of 4
        for table in SearchIndexMigration.tables {
            let automerge = try await database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT v FROM \(table.name)_config WHERE k = 'automerge'")
            }
            #expect(automerge == SearchIndexMigration.automerge, "\(table.name)")
        }
        #expect(SearchIndexMigration.automerge == 2)
    }

    @Test("a tenant database made before the courses' prefix indexes gets them, and finds its courses as before")
    func prefixIndexMigration() async throws {
        try await withTemporaryDirectory { directory in
            // Given a tenant database at v7 holding a teacher and a course
            let url = directory.appendingPathComponent("v7.sqlite")
            var configuration = Configuration()
            configuration.prepareDatabase { db in ChangeLog.installClock(on: db, now: { Date() }) }
            let old = try DatabaseQueue(path: url.path, configuration: configuration)
            try TenantMigrations.migrator.migrate(old, upTo: "v7-registration-tokens")
            try await old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO users (id, email, email_key, password_hash, first_name, last_name, role, created_at, updated_at)
                        VALUES ('t1', 'rene@old.example', 'rene@old.example', 'x', 'René', 'Descartes', 'teacher',
                            '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                        INSERT INTO courses (id, title, description, category, published, teacher_id, created_at, updated_at)
                        VALUES ('c1', 'Geometría cartesiana', 'Ejes y coordenadas.', 'mathematics', 1, 't1',
                            '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                        """)
            }
            try old.close()

            // When the server opens it
            let database = try TenantDatabase.open(tenantID: try #require(TenantID("v7")), at: url)
            let store = TenantStore(database)
            let teacher = try #require(try await database.writer.read { db in try UserRecord.fetchOne(db, key: "t1") })
            let admin = Identity(store: store, user: teacher, sessionID: "test")

            // Then the search table indexes beginnings of 1 to 8 characters, is whole, and finds the course by any beginning
            let definition = try await database.writer.read { db in
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'courses_search'")
            }
            #expect(definition?.contains("prefix='\(SearchIndexMigration.coursePrefixLengths)'") == true, "\(definition ?? "")")
            try await database.writer.write { db in
                try db.execute(sql: "INSERT INTO courses_search(courses_search) VALUES ('integrity-check')")
            }
            for query in ["g", "geo", "geometr", "geometria", "cartesiana", "coordenadas"] {
                let courses = try await store.coursePage(visibleTo: admin, category: nil, query: query, pagination: Pagination())
                #expect(courses.items.map(\.course.id) == ["c1"], "\(query)")
            }
        }
    }

    @Test("a tenant database made before the search tables gets them filled by its migration")
    func migrationBackfills() async throws {
        try await withTemporaryDirectory { directory in
            // Given a tenant database at v2-media holding a teacher, a course and search_text columns
            let url = directory.appendingPathComponent("old.sqlite")
            let old = try DatabaseQueue(path: url.path)
            try TenantMigrations.migrator.migrate(old, upTo: "v2-media")
            try await old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO users (id, email, email_key, password_hash, first_name, last_name, role, search_text,
                            created_at, updated_at)
                        VALUES ('t1', 'rene@old.example', 'rene@old.example', 'x', 'René', 'Descartes', 'teacher',
                            'rene descartes', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                        INSERT INTO courses (id, title, description, category, published, teacher_id, search_text,
                            created_at, updated_at)
                        VALUES ('c1', 'Geometría cartesiana', 'Ejes y coordenadas.', 'mathematics', 1, 't1',
                            'geometria cartesiana', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                        """)
            }
            try old.close()

            // When the server opens it (migrating it to the current schema)
            let database = try TenantDatabase.open(tenantID: try #require(TenantID("old")), at: url)
            let store = TenantStore(database)
            let teacher = try #require(try await database.writer.read { db in try UserRecord.fetchOne(db, key: "t1") })
            let admin = Identity(store: store, user: teacher, sessionID: "test")

            // Then its rows are found by search, and search_text is gone
            let courses = try await store.coursePage(
                visibleTo: admin, category: nil, query: "geometria", pagination: Pagination())
            #expect(courses.items.map(\.course.id) == ["c1"])
            let users = try await store.userPage(role: nil, query: "rene", pagination: Pagination(), visibleTo: admin)
            #expect(users.items.map(\.id) == ["t1"])
            let columns = try await database.writer.read { db in
                try db.columns(in: "courses").map(\.name) + db.columns(in: "users").map(\.name)
            }
            #expect(!columns.contains("search_text"))
        }
    }
}
