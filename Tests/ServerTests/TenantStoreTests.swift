import Foundation
import GRDB
import Synchronization
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The tenant store below the HTTP layer: results and the statements each method runs.
@Suite(.timeLimit(.minutes(3))) struct TenantStoreTests {
    /// A seeded demo tenant in memory (one connection, so a trace sees every statement).
    static func demoTenant(caches: TenantCaches = TenantCaches()) async throws -> TenantDatabase {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("demo")), at: nil, caches: caches)
        try await Seeder(passwords: PasswordHasher(cost: 4), now: Date()).seedDemo("demo", into: TenantStore(database))
        return database
    }

    /// `email`'s identity, as authentication would build it.
    static func identity(_ email: String, in database: TenantDatabase) async throws -> Identity {
        let user = try await database.writer.read { db in try UserRecord.filter(Column("email") == email).fetchOne(db) }
        return Identity(store: TenantStore(database), user: try #require(user), sessionID: "test")
    }

    /// Enrolls `identity` in every published course and completes one lesson of each.
    static func enrollEverywhere(_ identity: Identity, in database: TenantDatabase) async throws {
        try await database.writer.write { db in
            let courses = try CourseRecord.filter(CourseRecord.Columns.published == true).fetchAll(db)
            for (index, course) in courses.enumerated() {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO enrollments (course_id, user_id, enrolled_at) VALUES (?, ?, ?)",
                    arguments: [course.id, identity.userID, Date(timeIntervalSince1970: TimeInterval(index))])
            }
        }
    }

    /// Runs `body` and returns the SQL statements it ran (GRDB's own `BEGIN`/`COMMIT` included).
    static func statements(in database: TenantDatabase, during body: () async throws -> Void) async throws -> [String] {
        let traced = Mutex<[String]>([])
        try await database.writer.write { db in db.trace { event in traced.withLock { $0.append("\(event)") } } }
        try await body()
        try await database.writer.write { db in db.trace(options: [], nil) }
        return traced.withLock { $0 }
    }

    @Test("coursePage runs two statements for a page of 1 as for a page of 20, with each course's lesson count")
    func coursePageHasNoNPlusOne() async throws {
        let database = try await Self.demoTenant()
        let student = try await Self.identity("student1@demo.edugo.dev", in: database)
        let store = TenantStore(database)
        func page(limit: Int) async throws -> ListPage<CourseWithLessonCount> {
            try await store.coursePage(visibleTo: student, category: nil, query: nil, pagination: Pagination(page: 1, limit: limit))
        }

        var one: ListPage<CourseWithLessonCount>?
        var twenty: ListPage<CourseWithLessonCount>?
        let few = try await Self.statements(in: database) { one = try await page(limit: 1) }
        let many = try await Self.statements(in: database) { twenty = try await page(limit: 20) }

        let queries = { (statements: [String]) in statements.filter { $0.hasPrefix("SELECT") } }
        let first = try #require(one)
        #expect(first.items.count == 1)
        let items = try #require(twenty).items
        #expect(items.count > 3)
        #expect(items.allSatisfy { $0.course.published }, "a student sees published courses only")
        // The change sequence, the total (counted once per sequence: the second page reuses it) and
        // the page with its lesson counts.
        #expect(queries(few).count == 3, "\(few.joined(separator: "\n"))")
        #expect(queries(many).count == 2, "\(many.joined(separator: "\n"))")
        for item in items {
            let lessons = try await database.writer.read { db in
                try LessonRecord.filter(LessonRecord.Columns.courseId == item.course.id).fetchCount(db)
            }
            #expect(item.lessonCount == lessons, "\(item.course.title)")
        }
    }

    @Test("enrolledCoursePage runs the same statements for 1 enrolled course as for every course (no N+1)")
    func enrolledCoursePageHasNoNPlusOne() async throws {
        let database = try await Self.demoTenant()
        let student = try await Self.identity("student1@demo.edugo.dev", in: database)
        let pagination = Pagination(page: 1, limit: 20)

        // Given the student's page with one enrollment (once before, so GRDB's schema lookups are cached),
        // and then with one in every published course
        _ = try await TenantStore(database).enrolledCoursePage(of: student, pagination: pagination)
        let few = try await Self.statements(in: database) {
            let page = try await TenantStore(database).enrolledCoursePage(of: student, pagination: Pagination(page: 1, limit: 1))
            #expect(page.items.count == 1)
        }
        try await Self.enrollEverywhere(student, in: database)
        var page: ListPage<EnrolledCourse>?
        let many = try await Self.statements(in: database) {
            page = try await TenantStore(database).enrolledCoursePage(of: student, pagination: pagination)
        }

        // Then the page holds more rows, and the statements are the same in number
        let items = try #require(page).items
        #expect(items.count > 3)
        // (The total is left out: it is counted once per change sequence, so the write between the
        // two reads makes the second count it again; ListTotalsTests covers it.)
        let queries = { (statements: [String]) in
            statements.filter { $0.hasPrefix("SELECT") && !$0.hasPrefix("SELECT COUNT(*)") && !$0.contains("sqlite_sequence") }
        }
        #expect(queries(many).count == queries(few).count, "\(many.joined(separator: "\n"))")
        #expect(queries(many).count == 4, "\(many.joined(separator: "\n"))")
        // And each row carries its course's lesson count
        for item in items {
            let lessons = try await database.writer.read { db in
                try LessonRecord.filter(LessonRecord.Columns.courseId == item.course.id).fetchCount(db)
            }
            #expect(item.lessonCount == lessons, "\(item.course.title)")
        }
    }

    @Test("enrolledCoursePage leaves out courses the caller may not see and counts only the visible ones")
    func enrolledCoursePageHidesDrafts() async throws {
        let database = try await Self.demoTenant()
        let student = try await Self.identity("student1@demo.edugo.dev", in: database)
        try await Self.enrollEverywhere(student, in: database)
        let visible = try #require(try await TenantStore(database).enrolledCoursePage(of: student, pagination: Pagination()).total)

        // When one of the student's courses becomes a draft
        let draft = try #require(try await TenantStore(database).enrolledCoursePage(of: student, pagination: Pagination()).items.first)
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE courses SET published = 0 WHERE id = ?", arguments: [draft.course.id])
        }

        // Then it is neither listed nor counted
        let page = try await TenantStore(database).enrolledCoursePage(of: student, pagination: Pagination())
        #expect(page.total == visible - 1)
        #expect(!page.items.contains { $0.course.id == draft.course.id })
    }
}
