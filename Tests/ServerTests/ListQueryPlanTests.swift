import Foundation
import GRDB
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Every list and search the API offers runs on its index: `EXPLAIN QUERY PLAN` of the very
/// statement the store runs (its query type builds it for both) shows no sort and no walk of a
/// whole table, so a page costs what it holds, not what the table holds.
@Suite(.timeLimit(.minutes(3))) struct ListQueryPlanTests {
    /// One list statement the store runs, with the indexes its plan must use.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var statement: @Sendable () -> ListStatement
        /// Indexes the plan must name; dropping any of them must break the plan.
        var indexes: [String]
        /// Whether the plan may walk an index from its start (`SCAN … USING INDEX`): only a first
        /// page with no condition to seek on, where the walk is in the list's order and stops
        /// after `LIMIT` rows (for a search: after `LIMIT` matches, each checked against the match
        /// set read once from the search table, so a rare word walks more of the index, never
        /// the table's rows, and never sorts).
        var walksFromStart = false
        /// Indexes whose absence leaves a seek as narrow on another index (which one reads fewer
        /// rows then depends on the data), so ``indexesAreNeeded(_:)`` does not expect worse.
        var equallyNarrowWithout: [String] = []

        var testDescription: String { name }
    }

    static let userID = "teacher-1"
    static let after = PageCursor(timestamp: "2026-11-18 11:06:40.000", id: "course-9")
    static let window = SearchWindow(
        rowIDs: 310...402, last: PageCursor(timestamp: "2026-11-17 09:00:00.000", id: "course-3"))

    /// The statement reading a search's window (``CourseListQuery/window``).
    static func searchWindow(_ role: UserRecord.Role, category: String?, after: PageCursor?) -> ListStatement {
        // A search has a window; a plain list does not.
        CourseListQuery(role: role, userID: userID, category: category, search: "curso", after: after, limit: 20).window
            ?? ListStatement(sql: "SELECT 'no window'", arguments: [])
    }

    /// The statement finding where a page asked for by number continues (``CourseListQuery/skipped``).
    static func skipped(_ role: UserRecord.Role, category: String?, search: String?) -> ListStatement {
        CourseListQuery(role: role, userID: userID, category: category, search: search, limit: 20, offset: 40).skipped
            ?? ListStatement(sql: "SELECT 'no offset'", arguments: [])
    }

    static let cases: [Case] = [
        Case(
            name: "a student's courses",
            statement: { CourseListQuery(role: .student, userID: userID, category: nil, search: nil, limit: 20).page },
            indexes: ["courses_by_published_created", "lessons_by_course_order"]),
        Case(
            name: "a student's courses of one category",
            statement: { CourseListQuery(role: .student, userID: userID, category: "science", search: nil, limit: 20).page },
            indexes: ["courses_by_published_category_created"]),
        Case(
            name: "a teacher's courses (published, and their own drafts)",
            statement: { CourseListQuery(role: .teacher, userID: userID, category: nil, search: nil, limit: 20).page },
            indexes: ["courses_by_published_created", "courses_by_teacher_published_created"]),
        Case(
            name: "a teacher's courses of one category",
            statement: { CourseListQuery(role: .teacher, userID: userID, category: "science", search: nil, limit: 20).page },
            indexes: ["courses_by_published_category_created", "courses_by_teacher_published_created"],
            // The drafts branch then seeks the category's drafts instead of the teacher's drafts.
            equallyNarrowWithout: ["courses_by_teacher_published_created"]),
        Case(
            name: "an admin's courses",
            statement: { CourseListQuery(role: .admin, userID: userID, category: nil, search: nil, limit: 20).page },
            indexes: ["courses_by_created"], walksFromStart: true),
        Case(
            name: "an admin's courses of one category",
            statement: { CourseListQuery(role: .admin, userID: userID, category: "science", search: nil, limit: 20).page },
            indexes: ["courses_by_category_created"]),
        Case(
            name: "the user directory",
            statement: { UserListQuery(role: nil, search: nil, limit: 20).page },
            indexes: ["users_by_created"], walksFromStart: true),
        Case(
            name: "the user directory of one role",
            statement: { UserListQuery(role: .teacher, search: nil, limit: 20).page },
            indexes: ["users_by_role_created"]),
        Case(
            name: "a student's enrollments",
            statement: { EnrollmentListQuery(role: .student, userID: userID, limit: 20).page },
            indexes: ["enrollments_by_user_enrolled"]),
        Case(
            name: "a teacher's enrollments",
            statement: { EnrollmentListQuery(role: .teacher, userID: userID, limit: 20).page },
            indexes: ["enrollments_by_user_enrolled"]),
        Case(
            name: "a student's courses after a cursor",
            statement: { CourseListQuery(role: .student, userID: userID, category: nil, search: nil, after: after, limit: 20).page },
            indexes: ["courses_by_published_created"]),
        Case(
            name: "a student's courses of one category after a cursor",
            statement: {
                CourseListQuery(role: .student, userID: userID, category: "arts", search: nil, after: after, limit: 20).page
            },
            indexes: ["courses_by_published_category_created"]),
        Case(
            name: "a teacher's courses after a cursor",
            statement: { CourseListQuery(role: .teacher, userID: userID, category: nil, search: nil, after: after, limit: 20).page },
            indexes: ["courses_by_published_created", "courses_by_teacher_published_created"]),
        Case(
            name: "an admin's courses after a cursor",
            statement: { CourseListQuery(role: .admin, userID: userID, category: nil, search: nil, after: after, limit: 20).page },
            indexes: ["courses_by_created"]),
        Case(
            name: "an admin's courses of one category after a cursor",
            statement: { CourseListQuery(role: .admin, userID: userID, category: "arts", search: nil, after: after, limit: 20).page },
            indexes: ["courses_by_category_created"]),
        Case(
            name: "the user directory after a cursor",
            statement: { UserListQuery(role: nil, search: nil, after: after, limit: 20).page },
            indexes: ["users_by_created"]),
        Case(
            name: "the user directory of one role after a cursor",
            statement: { UserListQuery(role: .student, search: nil, after: after, limit: 20).page },
            indexes: ["users_by_role_created"]),
        Case(
            name: "a student's enrollments after a cursor",
            statement: { EnrollmentListQuery(role: .student, userID: userID, after: after, limit: 20).page },
            indexes: ["enrollments_by_user_enrolled"]),
        Case(
            name: "a student's course search",
            statement: { CourseListQuery(role: .student, userID: userID, category: nil, search: "matemá", limit: 20).page },
            indexes: ["courses_by_published_created"]),
        Case(
            name: "a student's course search of one category after a cursor",
            statement: {
                CourseListQuery(role: .student, userID: userID, category: "arts", search: "historia del", after: after, limit: 20).page
            },
            indexes: ["courses_by_published_category_created"]),
        Case(
            name: "a teacher's course search",
            statement: { CourseListQuery(role: .teacher, userID: userID, category: nil, search: "física", limit: 20).page },
            indexes: ["courses_by_published_created", "courses_by_teacher_published_created"]),
        Case(
            name: "an admin's course search",
            statement: { CourseListQuery(role: .admin, userID: userID, category: nil, search: "física", limit: 20).page },
            indexes: ["courses_by_created"], walksFromStart: true),
        Case(
            name: "an admin's course search after a cursor",
            statement: { CourseListQuery(role: .admin, userID: userID, category: nil, search: "física", after: after, limit: 20).page },
            indexes: ["courses_by_created"]),
        Case(
            name: "a student's search window",
            statement: { searchWindow(.student, category: nil, after: nil) },
            indexes: ["courses_by_published_created"]),
        Case(
            name: "a teacher's search window of one category after a cursor",
            statement: { searchWindow(.teacher, category: "arts", after: after) },
            // The drafts branch seeks the category's drafts or the teacher's drafts, whichever the planner picks.
            indexes: ["courses_by_published_category_created"]),
        Case(
            name: "an admin's search window",
            statement: { searchWindow(.admin, category: nil, after: nil) },
            indexes: ["courses_by_created"], walksFromStart: true),
        Case(
            name: "a student's search within its window",
            statement: { CourseListQuery(role: .student, userID: userID, category: nil, search: "curso", limit: 20).page(within: window) },
            indexes: ["courses_by_published_created"]),
        Case(
            name: "a teacher's search within its window",
            statement: { CourseListQuery(role: .teacher, userID: userID, category: nil, search: "curso", limit: 20).page(within: window) },
            indexes: ["courses_by_published_created", "courses_by_teacher_published_created"]),
        Case(
            name: "an admin's search of one category within its window after a cursor",
            statement: {
                CourseListQuery(role: .admin, userID: userID, category: "arts", search: "curso", after: after, limit: 20)
                    .page(within: window)
            },
            indexes: ["courses_by_category_created"]),
        Case(
            name: "where a student's page by number continues",
            statement: { skipped(.student, category: nil, search: nil) },
            indexes: ["courses_by_published_created"]),
        Case(
            name: "where a student's page by number of one category continues",
            statement: { skipped(.student, category: "arts", search: nil) },
            indexes: ["courses_by_published_category_created"]),
        Case(
            name: "where a teacher's page by number continues",
            statement: { skipped(.teacher, category: nil, search: nil) },
            indexes: ["courses_by_published_created", "courses_by_teacher_published_created"]),
        Case(
            name: "where an admin's page by number continues",
            statement: { skipped(.admin, category: nil, search: nil) },
            indexes: ["courses_by_created"], walksFromStart: true),
        Case(
            name: "where an admin's page by number of one category continues",
            statement: { skipped(.admin, category: "arts", search: nil) },
            indexes: ["courses_by_category_created"]),
        Case(
            name: "where a teacher's search by page number continues",
            statement: { skipped(.teacher, category: nil, search: "física") },
            indexes: ["courses_by_published_created", "courses_by_teacher_published_created"]),
        Case(
            name: "a user search",
            statement: { UserListQuery(role: nil, search: "gonzalez", limit: 20).page },
            indexes: ["users_by_created"], walksFromStart: true),
        Case(
            name: "a user search of one role after a cursor",
            statement: { UserListQuery(role: .teacher, search: "gonzalez", after: after, limit: 20).page },
            indexes: ["users_by_role_created"]),
        Case(
            name: "a course's lessons",
            statement: { LessonListQuery.lessons(ofCourse: "course-1") },
            indexes: ["lessons_by_course_order"]),
        Case(
            name: "a learner's progress in a course",
            statement: { ProgressListQuery.progress(inCourse: "course-1", of: userID) },
            indexes: [ListIndexesMigration.progressIndex.name]),
    ]

    /// A migrated, empty tenant database (no `ANALYZE` statistics, as in production).
    static func database() throws -> TenantDatabase {
        try TenantDatabase.open(tenantID: try #require(TenantID("plans")), at: nil)
    }

    /// The plan's lines, `EXPLAIN QUERY PLAN`'s `detail` column.
    static func plan(of statement: ListStatement, in database: TenantDatabase) async throws -> [String] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
                .map { $0["detail"] as String }
        }
    }

    /// What is wrong with a plan: a sort for the order, a walk of a whole table, a walk of an
    /// index from its start where none is allowed, or a missing index.
    static func violations(of plan: [String], for listCase: Case) -> [String] {
        var found: [String] = []
        for line in plan {
            if line.hasPrefix("USE TEMP B-TREE") { found.append("sorts: \(line)") }
            // A teacher's two branches read a search's match set, made once (`MATERIALIZE matches`).
            guard line.hasPrefix("SCAN "), !line.contains("VIRTUAL TABLE"), line != "SCAN matches" else { continue }
            if !line.contains(" USING ") {
                found.append("walks the whole table: \(line)")
            } else if !listCase.walksFromStart {
                found.append("walks an index from its start: \(line)")
            }
        }
        for index in listCase.indexes where !plan.contains(where: { $0.contains(" INDEX \(index)") }) {
            found.append("does not use \(index)")
        }
        return found
    }

    @Test("each list's page is a seek in its order: no sort, no walk of a whole table", arguments: cases)
    func pagesSeekTheirIndex(_ listCase: Case) async throws {
        // Given a migrated tenant database
        let database = try Self.database()

        // When the list's statement is explained
        let plan = try await Self.plan(of: listCase.statement(), in: database)

        // Then it seeks the list's index in the list's order
        #expect(Self.violations(of: plan, for: listCase) == [], "\(plan.joined(separator: "\n"))")
    }

    @Test(
        "where a page by number continues is read from the list's indexes alone, never from the course rows",
        arguments: cases.filter { $0.name.hasPrefix("where ") })
    func skippedRowsAreIndexEntries(_ listCase: Case) async throws {
        // Given a migrated tenant database
        let database = try Self.database()

        // When the statement finding the key of the last skipped row is explained
        let plan = try await Self.plan(of: listCase.statement(), in: database)

        // Then every read of the courses table is of a covering index
        let reads = plan.filter { $0.hasPrefix("SEARCH courses ") || $0.hasPrefix("SCAN courses ") }
        #expect(reads.count == (listCase.name.contains("teacher") ? 2 : 1), "\(plan.joined(separator: "\n"))")
        #expect(reads.allSatisfy { $0.contains("USING COVERING INDEX") }, "\(plan.joined(separator: "\n"))")
    }

    /// How many columns the plan's seeks pin to a value (`x=?`): a wider seek pins fewer.
    static func pinnedColumns(in plan: [String]) -> Int {
        plan.filter { $0.hasPrefix("SEARCH ") }.map { $0.components(separatedBy: "=?").count - 1 }.reduce(0, +)
    }

    @Test(
        "each list's index is what makes its page a narrow seek: without it the page sorts, scans or seeks wider",
        arguments: cases)
    func indexesAreNeeded(_ listCase: Case) async throws {
        let withIndexes = try await Self.plan(of: listCase.statement(), in: Self.database())
        for index in listCase.indexes where !listCase.equallyNarrowWithout.contains(index) {
            // Given a tenant database without one of the list's indexes
            let database = try Self.database()
            try await database.writer.write { db in try db.execute(sql: "DROP INDEX \(index)") }

            // When the list's statement is explained
            let plan = try await Self.plan(of: listCase.statement(), in: database)

            // Then the plan sorts, walks a table, or seeks fewer columns (it reads rows the page does not hold)
            let serious = Self.violations(of: plan, for: listCase).filter { !$0.hasPrefix("does not use") }
            #expect(
                !serious.isEmpty || Self.pinnedColumns(in: plan) < Self.pinnedColumns(in: withIndexes),
                "without \(index): \(plan.joined(separator: "\n"))")
        }
    }
}
