import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// List pages answered from memory while nothing changed, never after a change.
@Suite struct PageCacheTests {
    static func request(ifNoneMatch: String? = nil) -> Request {
        var head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/v1/courses")
        if let ifNoneMatch { head.headerFields[.ifNoneMatch] = ifNoneMatch }
        return Request(head: head, body: .init(buffer: ByteBuffer()))
    }

    @Test("a repeated page is answered without reading it again, with the same bytes and entity tag, until the cache is emptied")
    func repeatedPageIsNotRead() async throws {
        let cache = PageCache()
        let reads = Mutex(0)
        func respond() async throws -> Response {
            try await CachedPage.respond(Self.request(), cache: cache, key: "k") {
                reads.withLock { $0 += 1 }
                return ["title": "Álgebra"]
            }
        }
        let first = try await respond()
        let second = try await respond()
        #expect(reads.withLock { $0 } == 1)
        #expect(first.headers[.eTag] == second.headers[.eTag])
        #expect(first.headers[.eTag]?.hasPrefix("\"p-") == true)
        cache.invalidate()
        _ = try await respond()
        #expect(reads.withLock { $0 } == 2)
    }

    @Test("a tenant's cache keeps no page when configured with 0 pages, and keeps them by default", arguments: [
        (PageCache.defaultCapacity, 1), (0, 2),
    ])
    func configuredCapacity(capacity: Int, reads expected: Int) async throws {
        let registry = try TenantRegistry(storage: .inMemory, pageCacheCapacity: capacity, now: { Date() })
        let id = try #require(TenantID("pages"))
        _ = try await registry.createTenant(id, name: "Pages") { _ in }
        let cache = await registry.pages(for: id)
        let reads = Mutex(0)
        for _ in 0..<2 {
            _ = try await CachedPage.respond(Self.request(), cache: cache, key: "k") {
                reads.withLock { $0 += 1 }
                return ["title": "Álgebra"]
            }
        }
        #expect(reads.withLock { $0 } == expected)
        await registry.close()
    }

    @Test("a commit that logs a change empties the cache before the write returns, and a page read before it is not kept")
    func commitsEmptyTheCache() async throws {
        let pages = PageCache()
        let database = try await TenantStoreTests.demoTenant(caches: TenantCaches(changeDependent: pages))
        let page = EncodedPage(body: Data("old".utf8), entityTag: "\"p-0\"")
        guard case .miss(let epoch) = pages.lookup("k") else { throw HelperFailure(description: "hit in an empty cache") }
        pages.store(page, for: "k", readAt: epoch)
        guard case .hit = pages.lookup("k") else { throw HelperFailure(description: "the page was not kept") }

        // A read begins (its epoch handed out), a write commits, the read offers its page.
        guard case .miss = pages.lookup("other") else { throw HelperFailure(description: "unexpected hit") }
        let before: UInt64
        switch pages.lookup("late") {
        case .miss(let epoch): before = epoch
        case .hit: throw HelperFailure(description: "unexpected hit")
        }
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE courses SET title = 'Cambiado' WHERE id = (SELECT id FROM courses LIMIT 1)")
        }
        if case .hit = pages.lookup("k") { Issue.record("a page from before the write was served after it") }
        pages.store(page, for: "late", readAt: before)
        if case .hit = pages.lookup("late") { Issue.record("a page read before the write was kept after it") }

        // A transaction that changes nothing synced (a session) leaves the cache alone.
        switch pages.lookup("k") {
        case .miss(let epoch): pages.store(page, for: "k", readAt: epoch)
        case .hit: break
        }
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE sessions SET revoke_reason = revoke_reason")
        }
        guard case .hit = pages.lookup("k") else {
            Issue.record("a transaction that logged no change emptied the cache")
            return
        }
    }

    @Test("1,000 times a teacher renames a course and a student lists at once after the answer: never the old title")
    func neverServesAPageOlderThanASeenWrite() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let course = try #require(try await client.allCourses(as: teacher).first { $0.published && $0.teacherId == teacher.id })
            var version = course.version
            for index in 0..<1_000 {
                let title = "Título \(index)"
                let renamed = try await client.send(
                    .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": title], headers: .ifMatch(version))
                let body = try client.expectOK(CourseBody.self, renamed, "rename")
                version = body.version
                let listed = try await client.allCourses(as: student).first { $0.id == course.id }
                guard listed?.title == title else {
                    Issue.record("iteration \(index): listed \(listed?.title ?? "nothing") after renaming to \(title)")
                    return
                }
            }
        }
    }

    @Test("a list answers 304 to its entity tag while nothing changed, and 200 with a new tag after a change")
    func listRevalidates() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let first = try await client.get("/v1/courses?limit=100", as: student)
            let tag = try #require(first.headers[.eTag])
            let again = try await client.get("/v1/courses?limit=100", as: student, headers: .ifNoneMatch(tag))
            #expect(again.status == .notModified)
            #expect(again.headers[.eTag] == tag)
            // Another class of caller sees another page under another key.
            let teachers = try await client.get("/v1/courses?limit=100", as: teacher, headers: .ifNoneMatch(tag))
            #expect(teachers.status == .ok)

            let course = try #require(try await client.allCourses(as: teacher).first { $0.published && $0.teacherId == teacher.id })
            _ = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "Nuevo título"], headers: .ifMatch(course.version))
            let changed = try await client.get("/v1/courses?limit=100", as: student, headers: .ifNoneMatch(tag))
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != tag)
        }
    }

    @Test("callers of one visibility class (a page's key) list the same courses, and callers of different classes do not")
    func visibilityClassIsASoundKey() async throws {
        // Given the demo tenant, with a draft of its first teacher's
        let database = try await TenantStoreTests.demoTenant()
        let teacher = try await TenantStoreTests.identity("teacher1@demo.edugo.dev", in: database)
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO courses (id, title, description, category, published, teacher_id, version, created_at, updated_at)
                    VALUES ('draft-x', 'Borrador', '', 'science', 0, ?, 1, ?, ?)
                    """,
                arguments: [teacher.userID, Date(), Date()])
        }
        let store = TenantStore(database)
        let emails = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT email FROM users ORDER BY email") }
        var listed: [CourseVisibility: [String: [String]]] = [:]
        for email in emails {
            let identity = try await TenantStoreTests.identity(email, in: database)
            let page = try await store.coursePage(visibleTo: identity, category: nil, query: nil, pagination: Pagination(limit: 100))
            listed[CourseAccess.visibility(identity), default: [:]][email] = page.items.map(\.course.id)
        }

        // Then within a class every caller lists the same courses (a student's page serves every student)
        for (visibility, lists) in listed {
            #expect(Set(lists.values).count == 1, "\(visibility): \(lists)")
        }
        #expect(try #require(listed[.published]).count > 1)
        // And the teacher with a draft is a class of their own, listing what students do not
        let students = try #require(listed[.published]?.values.first)
        let teachers = try #require(listed[.publishedAndDraftsOf(teacherID: teacher.userID)]?.values.first)
        #expect(teachers.contains("draft-x") && !students.contains("draft-x"))
    }

    @Test("page keys never collide: a search text and a cursor id holding the separator give different keys")
    func keysAreUnambiguous() {
        // The same bytes joined with NUL: a search `q\0 20\0 1\0 5/x` on page 1 against `q` after `5/x\0 20\0 1\0`
        let searched = ["courses", "student", "", "q\u{0}20\u{0}1\u{0}5/x", "20", "1", ""]
        let continued = ["courses", "student", "", "q", "20", "1", "5/x\u{0}20\u{0}1\u{0}"]
        #expect(searched.joined(separator: "\u{0}") == continued.joined(separator: "\u{0}"))
        #expect(CachedPage.key(searched) != CachedPage.key(continued))
        #expect(CachedPage.key(["a", "b"]) == CachedPage.key(["a", "b"]))
    }
}
