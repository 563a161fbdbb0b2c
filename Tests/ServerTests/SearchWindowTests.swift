import Foundation
import GRDB
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// A course search first looks among the newest rows (``SearchWindow``) and reads every match
/// only when they do not fill the page: the answer must be the same either way, whatever the
/// role, the filter, how many courses match and how `rowid` relates to the list's order.
///
/// Its walks make about a thousand reads, each an `await`: under the address sanitizer, with the
/// whole suite waiting for the same two cores, a clean-clone CI run once took 442 s over the
/// older walk's 5,000 (2 s alone, debug). The limit is a guard against a hang, not a budget.
@Suite(.timeLimit(.minutes(10))) struct SearchWindowTests {
    /// Words of the catalogue below, each held by a share of its courses; no other word of it
    /// begins like them. Every title also holds "Curso" and one of "serie0" to "serie39".
    static let shares: [(word: String, oneIn: Int)] = [("zorvex", 1), ("quimbal", 2), ("plixor", 10), ("drunet", 150)]

    /// Searches over every share, with beginnings of words that name one word of the index or
    /// many ("serie1", "serie"), longer than the search table's prefix indexes ("quimba"), in
    /// capitals, and after a whole word.
    static let searches = shares.map(\.word) + ["zorv", "QUIMB", "quimbal", "curso plix", "serie1", "serie", "Curso serie3", "drunet serie"]

    /// A tenant of 600 courses from two teachers, published or drafts, in two categories, whose
    /// creation times are shuffled against their insertion order (so `rowid` says nothing about
    /// the list's order) and often equal (so the id breaks ties); and the callers.
    static func catalogue() async throws -> (store: TenantStore, callers: [String: Identity], courses: [CourseRecord]) {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("window")), at: nil)
        let courses = try await database.writer.write { db in
            var generator = SeededGenerator(seed: 0x5EA7C4)
            for (id, role) in [("a1", "admin"), ("t1", "teacher"), ("t2", "teacher"), ("s1", "student")] {
                try db.execute(
                    sql: """
                        INSERT INTO users (id, email, email_key, password_hash, first_name, last_name, role, created_at, updated_at)
                        VALUES (?, ?, ?, 'x', 'Ana', 'Pérez', ?, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')
                        """,
                    arguments: [id, "\(id)@window.example", "\(id)@window.example", role])
            }
            var courses: [CourseRecord] = []
            for index in 0..<600 {
                let words = shares.filter { index % $0.oneIn == 0 }.map(\.word)
                let created = Date(timeIntervalSince1970: 1_800_000_000 + TimeInterval(Int.random(in: 0..<300, using: &generator)))
                let course = CourseRecord(
                    id: String(format: "course-%03d", Int.random(in: 0..<1_000, using: &generator)) + "-\(index)",
                    title: (["Curso"] + words + ["serie\(index % 40)"]).joined(separator: " "), description: "Texto de relleno.",
                    category: Bool.random(using: &generator) ? "arts" : "science", published: Int.random(in: 0..<10, using: &generator) < 7,
                    teacherId: Bool.random(using: &generator) ? "t1" : "t2", version: 1, createdAt: created, updatedAt: created)
                try course.insert(db)
                courses.append(course)
            }
            return courses
        }
        let store = TenantStore(database)
        var callers: [String: Identity] = [:]
        for id in ["a1", "t1", "s1"] {
            let user = try #require(try await database.writer.read { db in try UserRecord.fetchOne(db, key: id) })
            callers[id] = Identity(store: store, user: user, sessionID: "test")
        }
        return (store, callers, courses)
    }

    /// The ids a search must find, in the list's order: computed from the rows, not by SQL. Each
    /// word of the search is a word of the title, the last one the beginning of one.
    static func expected(_ courses: [CourseRecord], search: String, category: String?, for caller: Identity) -> [String] {
        let words = search.lowercased().split(separator: " ")
        return courses.filter { course in
            let visible = caller.role == .admin || course.published || course.teacherId == caller.userID
            let title = course.title.lowercased().split(separator: " ")
            let matches = words.dropLast().allSatisfy(title.contains) && title.contains { $0.hasPrefix(words[words.count - 1]) }
            return visible && (category == nil || course.category == category) && matches
        }
        .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        .map(\.id)
    }

    @Test("every search, walked page by page with `after` (the page size changing as it goes) and read by `page=`, finds exactly the matches in the list's order")
    func pagesMatchTheRows() async throws {
        // Given the catalogue
        let (store, callers, courses) = try await Self.catalogue()
        let limits = [3, 20, 100]
        for (name, caller) in callers {
            for word in Self.searches {
                for category in [nil, "arts"] {
                    let expected = Self.expected(courses, search: word, category: category, for: caller)
                    for first in limits.indices {
                        // A walk's page sizes turn through the limits from one of them, so each size
                        // is read at many depths of the list without reading 600 matches three at a time.
                        let sizes = Array(limits[first...] + limits[..<first])
                        let label = "\(name) searching \(word) in \(category ?? "every category"), pages of \(sizes) in turn"

                        // When the search is walked to its end by `after`
                        var found: [String] = []
                        var after: PageCursor?
                        var pages = 0
                        repeat {
                            let page = try await store.coursePage(
                                visibleTo: caller, category: category, query: word,
                                pagination: Pagination(limit: sizes[pages % sizes.count], after: after))
                            if pages == 0 { #expect(page.total == expected.count, "\(label)") }
                            found += page.items.map(\.course.id)
                            after = page.next
                            pages += 1
                            #expect(found.count <= expected.count, "\(label)")
                            if found.count > expected.count { break }
                        } while after != nil

                        // Then it found each match once, in order; and the second page by number is the same rows
                        #expect(found == expected, "\(label)")
                        let limit = sizes[0]
                        let second = try await store.coursePage(
                            visibleTo: caller, category: category, query: word, pagination: Pagination(page: 2, limit: limit))
                        #expect(second.items.map(\.course.id) == Array(expected.dropFirst(limit).prefix(limit)), "\(label), page 2")
                    }
                }
            }
        }
    }

    @Test("every list and search read by page number holds the rows of its place in the list's order, past its end none")
    func pagesByNumberAreSlicesOfTheList() async throws {
        // Given the catalogue
        let (store, callers, courses) = try await Self.catalogue()
        for (name, caller) in callers {
            for search in [nil, "quimbal", "plixor", "curso serie1"] {
                for category in [nil, "arts"] {
                    for limit in [7, 50] {
                        // Every title holds "curso": searching it expects the whole list.
                        let expected = Self.expected(courses, search: search ?? "curso", category: category, for: caller)
                        let label = "\(name) reading \(search ?? "the list") in \(category ?? "every category"), \(limit) a page"
                        for number in 1...(expected.count / limit + 2) {
                            // When the page is asked for by its number
                            let page = try await store.coursePage(
                                visibleTo: caller, category: category, query: search, pagination: Pagination(page: number, limit: limit))

                            // Then it holds the rows at its place, the total, and where the next one starts
                            let slice = Array(expected.dropFirst((number - 1) * limit).prefix(limit))
                            #expect(page.items.map(\.course.id) == slice, "\(label), page \(number)")
                            #expect(page.total == expected.count, "\(label), page \(number)")
                            #expect(page.next?.id == (number * limit < expected.count ? slice.last : nil), "\(label), page \(number)")
                        }
                    }
                }
            }
        }
    }

    @Test("a search most courses match reads only the matches among the newest rows; a rare one reads them all")
    func broadSearchesReadTheWindowOnly() async throws {
        // Given the catalogue, a student, and where the 30 oldest courses they see begin
        let (store, callers, _) = try await Self.catalogue()
        let student = try #require(callers["s1"])
        let database = store.database
        let start = PageCursor(timestamp: "2100-01-01 00:00:00.000", id: "z")
        let row = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT created_at, id FROM courses WHERE published = 1 ORDER BY created_at, id LIMIT 1 OFFSET 30")
                .map { (timestamp: $0["created_at"] as String, id: $0["id"] as String) }
        }
        let nearTheEnd = PageCursor(timestamp: try #require(row).timestamp, id: try #require(row).id)
        func matchSetReads(_ word: String, after: PageCursor) async throws -> [String] {
            try await TenantStoreTests.statements(in: database) {
                _ = try await store.coursePage(
                    visibleTo: student, category: nil, query: word, pagination: Pagination(limit: 20, after: after))
            }.filter { $0.contains("MATCH") && !$0.hasPrefix("--") }  // `--`: a virtual table's own statements
        }

        // When they search for a word every course holds, for one few do, and for that one among the last 30
        let broad = try await matchSetReads("zorvex", after: start)
        let rare = try await matchSetReads("drunet", after: start)
        let rareAmongFew = try await matchSetReads("drunet", after: nearTheEnd)

        // Then the broad search asked the search table for a rowid range only, the rare one also
        // for every match, and among 30 rows (fewer than the window) the range was the whole answer
        #expect(broad.count == 1 && broad.allSatisfy { $0.contains("BETWEEN") }, "\(broad.joined(separator: "\n"))")
        #expect(rare.count == 2 && rare.contains { !$0.contains("BETWEEN") }, "\(rare.joined(separator: "\n"))")
        #expect(rareAmongFew.count == 1 && rareAmongFew.allSatisfy { $0.contains("BETWEEN") }, "\(rareAmongFew.joined(separator: "\n"))")
    }
}
