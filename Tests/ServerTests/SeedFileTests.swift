import Foundation
import GRDB
import Logging
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Declarative seeds: a seed file at start (`--seed`), validated whole before anything is
/// written, and applied idempotently.
@Suite(.timeLimit(.minutes(3))) struct SeedFileTests {
    /// Two tenants; the second one's fourth course has a lesson without a title when `broken`,
    /// and an enrollment naming a course that does not exist.
    static func file(broken: Bool) -> String {
        let lesson = broken ? #"{"duration_minutes": 5}"# : #"{"title": "Uno"}"#
        let enrollment = broken ? "no-such-course" : "c3"
        return """
            {"tenants": [
              {"id": "seed-a", "name": "A", "users": [
                 {"email": "admin@a.test", "password": "Admin-Pass-1", "role": "admin"},
                 {"email": "teacher@a.test", "password": "Teacher-Pass-1", "role": "teacher"}],
               "courses": [{"title": "Álgebra", "category": "mathematics", "teacher": "teacher@a.test",
                            "lessons": [{"title": "Ecuaciones"}, {"title": "Funciones"}]}]},
              {"id": "seed-b", "users": [
                 {"email": "teacher@b.test", "password": "Teacher-Pass-1", "role": "teacher"},
                 {"email": "ana@b.test", "password": "Student-Pass-1", "role": "student", "first_name": "Ana"}],
               "courses": [
                 {"key": "c0", "title": "Uno", "category": "science", "teacher": "teacher@b.test"},
                 {"key": "c1", "title": "Dos", "category": "science", "teacher": "teacher@b.test"},
                 {"key": "c2", "title": "Tres", "category": "science", "teacher": "teacher@b.test", "published": false},
                 {"key": "c3", "title": "Cuatro", "category": "arts", "teacher": "teacher@b.test",
                  "lessons": [\(lesson), {"key": "l1", "title": "Dos"}]}],
               "enrollments": [{"student": "ana@b.test", "course": "\(enrollment)"}],
               "progress": [{"student": "ana@b.test", "course": "c3", "lesson": "l1", "completed": true, "watched_seconds": 60}]}
            ]}
            """
    }

    @Test("a seed file with one bad entry names each problem's path and the server starts with nothing of it")
    func badEntryCreatesNothing() async throws {
        try await withTemporaryDirectory { directory in
            // Given a seed file whose second tenant has a lesson without a title and a dangling enrollment
            let url = directory.appendingPathComponent("seed.json")
            try Data(Self.file(broken: true).utf8).write(to: url)
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            configuration.seedDemoData = false
            configuration.seedFile = url

            // When the server starts with it
            do {
                _ = try await buildApplication(configuration)
                Issue.record("the server started with an invalid seed file")
            } catch let error as StartupError {
                // Then it refuses, naming both problems by their path in the file
                guard case .invalidSeedFile(let path, let problems) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(path == url.path)
                #expect(problems.contains("tenants[1].courses[3].lessons[0].title: required"))
                #expect(problems.contains { $0.hasPrefix("tenants[1].enrollments[0].course:") })
                #expect(error.description.contains("tenants[1].courses[3].lessons[0].title: required"))
            }

            // And not even the valid first tenant was created
            let registry = try TenantRegistry(storage: .directory(directory), now: { Date() })
            #expect(try await registry.tenantIDs().isEmpty)
        }
    }

    @Test("every problem of a seed document is listed at once, with its path")
    func everyProblemAtOnce() throws {
        let document = """
            {"tenants": [{"id": "x", "users": [{"email": "not-an-email", "password": "short", "role": "boss"}],
              "courses": [{"title": "", "category": "cooking", "teacher": "nobody@x.test", "colour": "red"}]},
              {"id": "x"}]}
            """
        #expect(throws: SeedValidationError.self) { try SeedDescription.parse(file: Data(document.utf8)) }
        do {
            _ = try SeedDescription.parse(file: Data(document.utf8))
        } catch let invalid as SeedValidationError {
            let fields = Set(invalid.issues.map(\.field))
            #expect(fields.isSuperset(of: [
                "tenants[0].users[0].email", "tenants[0].users[0].password", "tenants[0].users[0].role",
                "tenants[0].courses[0].title", "tenants[0].courses[0].category", "tenants[0].courses[0].colour",
                "tenants[1].id",
            ]))
        }
    }

    @Test("seeding the same file twice leaves the same state and hashes no password the second time")
    func seedingTwiceIsIdempotent() async throws {
        try await withTemporaryDirectory { directory in
            // Given a valid seed file applied once
            let description = try SeedDescription.parse(file: Data(Self.file(broken: false).utf8))
            let registry = try TenantRegistry(storage: .directory(directory), now: { Date() })
            let seeder = Seeder(passwords: PasswordHasher(cost: 4), now: Date(timeIntervalSince1970: 1_800_000_000))
            try await seeder.seed(description, into: registry, logger: Logger(label: "test"))
            let first = try await Self.dump(registry)

            // When it is applied again (later, so any new row would differ)
            let again = Seeder(passwords: PasswordHasher(cost: 4), now: Date(timeIntervalSince1970: 1_900_000_000))
            try await again.seed(description, into: registry, logger: Logger(label: "test"))

            // Then every table of every tenant holds exactly what it held
            let second = try await Self.dump(registry)
            #expect(second == first)
            #expect(first["seed-b"]?.contains { $0.hasPrefix("progress:") } == true)
            let b = try await registry.store(for: try #require(TenantID("seed-b")))
            let outcome = try await again.seed(try #require(description.tenant("seed-b")), into: b, tenantID: try #require(TenantID("seed-b")))
            #expect(outcome == .inserted(users: 0, courses: 0, lessons: 0, enrollments: 0, progress: 0))
        }
    }

    @Test("a reseed adds what is missing and keeps what a user changed")
    func reseedAddsMissingAndKeepsChanges() async throws {
        let id = try #require(TenantID("seed-b"))
        let description = try SeedDescription.parse(file: Data(Self.file(broken: false).utf8))
        let tenant = try #require(description.tenant("seed-b"))
        let database = try TenantDatabase.open(tenantID: id, at: nil)
        let store = TenantStore(database)
        let seeder = Seeder(passwords: PasswordHasher(cost: 4), now: Date())
        try await seeder.seed(tenant, into: store, tenantID: id)
        // Given a renamed course and a deleted one
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE courses SET title = 'Renamed' WHERE title = 'Uno'")
            try db.execute(sql: "DELETE FROM courses WHERE title = 'Dos'")
        }

        // When the same tenant is seeded again
        let outcome = try await seeder.seed(tenant, into: store, tenantID: id)

        // Then only the deleted course is back, and the renamed one keeps its new title
        #expect(outcome == .inserted(users: 0, courses: 1, lessons: 0, enrollments: 0, progress: 0))
        let titles = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT title FROM courses ORDER BY title") }
        #expect(titles == ["Cuatro", "Dos", "Renamed", "Tres"])
    }

    @Test("the built-in demo seed file holds the documented demo accounts")
    func demoFileHoldsTheDemoAccounts() throws {
        let demo = try BundledSeeds.demo
        #expect(demo.tenants.compactMap(\.id?.rawValue) == ["demo", "acme"])
        let accounts = DemoAccount.seeded
        #expect(accounts.contains(DemoAccount(tenant: "demo", email: "student1@demo.edugo.dev", password: "Demo-Student-2026", role: "student")))
        #expect(accounts.contains(DemoAccount(tenant: "demo", email: "admin@demo.edugo.dev", password: "Demo-Admin-2026", role: "admin")))
        #expect(accounts.filter { $0.tenant == "demo" }.count == 9)
        #expect(accounts.filter { $0.tenant == "acme" }.count == 4)
    }

    /// Every row of every seeded table of every tenant, as text.
    static func dump(_ registry: TenantRegistry) async throws -> [String: [String]] {
        var tables: [String: [String]] = [:]
        for id in try await registry.tenantIDs() {
            let store = try await registry.store(for: id)
            tables[id.rawValue] = try await store.database.writer.read { db in
                var lines: [String] = []
                for table in ["users", "published_credentials", "courses", "lessons", "enrollments", "progress", "changes"] {
                    for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2") {
                        lines.append("\(table): \(row.description)")
                    }
                }
                return lines
            }
        }
        return tables
    }
}
