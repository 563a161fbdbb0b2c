import Foundation
import GRDB
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// A list's total is counted once per change sequence.
@Suite(.timeLimit(.minutes(3))) struct ListTotalsTests {
    @Test("a course list's total is counted once while nothing changes, and again, right, after a write")
    func countedOncePerChange() async throws {
        // Given a demo tenant and a student
        let database = try await TenantStoreTests.demoTenant()
        let student = try await TenantStoreTests.identity("student1@demo.edugo.dev", in: database)
        let store = TenantStore(database)
        func firstPage() async throws -> Int? {
            try await store.coursePage(visibleTo: student, category: nil, query: nil, pagination: Pagination()).total
        }
        let counts = { (statements: [String]) in statements.filter { $0.contains("COUNT(*)") && !$0.contains("lesson_count") } }

        // When the first page is read twice
        var first: Int?
        var again: Int?
        let reading = try await TenantStoreTests.statements(in: database) { first = try await firstPage() }
        let rereading = try await TenantStoreTests.statements(in: database) { again = try await firstPage() }

        // Then the total was counted once, and is the same
        #expect(counts(reading).count == 1, "\(reading.joined(separator: "\n"))")
        #expect(counts(rereading).isEmpty, "\(rereading.joined(separator: "\n"))")
        #expect(again == first)

        // When a published course is added
        try await database.writer.write { db in
            let teacher = try String.fetchOne(db, sql: "SELECT id FROM users WHERE role = 'teacher' LIMIT 1")
            try db.execute(
                sql: """
                    INSERT INTO courses (id, title, description, category, published, teacher_id, version, created_at, updated_at)
                    VALUES ('added', 'Añadido', '', 'science', 1, ?, 1, ?, ?)
                    """,
                arguments: [teacher, Date(), Date()])
        }
        var after: Int?
        let afterWrite = try await TenantStoreTests.statements(in: database) { after = try await firstPage() }

        // Then the total is counted again and counts it
        #expect(counts(afterWrite).count == 1)
        #expect(after == (try #require(first)) + 1)
    }

    @Test("two teachers' totals, read at the same change sequence, are each their own")
    func keptPerCaller() async throws {
        // Given two teachers, the first with more drafts than the second
        let database = try await TenantStoreTests.demoTenant()
        let first = try await TenantStoreTests.identity("teacher1@demo.edugo.dev", in: database)
        let second = try await TenantStoreTests.identity("teacher2@demo.edugo.dev", in: database)
        let visible = "SELECT COUNT(*) FROM courses WHERE published = 1 OR teacher_id = ?"
        let expected = try await database.writer.write { db in
            for index in 0..<3 {
                try db.execute(
                    sql: """
                        INSERT INTO courses (id, title, description, category, published, teacher_id, version, created_at, updated_at)
                        VALUES (?, 'Borrador', '', 'science', 0, ?, 1, ?, ?)
                        """,
                    arguments: ["draft-\(index)", first.userID, Date(), Date()])
            }
            return (
                first: try Int.fetchOne(db, sql: visible, arguments: [first.userID]),
                second: try Int.fetchOne(db, sql: visible, arguments: [second.userID]))
        }
        try #require(expected.first != expected.second)
        let store = TenantStore(database)

        // When each reads the first page, one after the other, with nothing written between
        let firstTotal = try await store.coursePage(visibleTo: first, category: nil, query: nil, pagination: Pagination()).total
        let secondTotal = try await store.coursePage(visibleTo: second, category: nil, query: nil, pagination: Pagination()).total

        // Then each total counts what that teacher may see
        #expect(firstTotal == expected.first)
        #expect(secondTotal == expected.second)
    }
}
