import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// `after` and `next`: lists continue from the last row's key, not from an offset.
@Suite(.timeLimit(.minutes(3))) struct KeysetPaginationTests {
    /// A list answer as the spec allows it: `page` and `total` absent from answers to `after`.
    struct ListBody<Item: Decodable>: Decodable {
        var items: [Item]
        var page: Int?
        var limit: Int
        var total: Int?
        var next: String?
    }

    struct Identified: Decodable { var id: String }

    /// Walks `path` page by page following `next`, calling `between` after each page but the last.
    static func walk(
        _ client: any TestClientProtocol, _ path: String, as caller: Caller,
        between: (_ page: ListBody<Identified>, _ index: Int) async throws -> Void
    ) async throws -> [ListBody<Identified>] {
        var pages: [ListBody<Identified>] = []
        var uri = path
        while pages.count < 100 {
            let page = try client.expectOK(ListBody<Identified>.self, try await client.get(uri, as: caller), "list \(uri)")
            pages.append(page)
            guard let next = page.next else { return pages }
            try await between(page, pages.count - 1)
            uri = path + "&after=" + next
        }
        Issue.record("the walk did not end after 100 pages")
        return pages
    }

    @Test(
        "walking the course list by next while courses are created and deleted between pages sees each course that stayed exactly once",
        arguments: [Credentials.demoStudent, .demoTeacher, .demoAdmin])
    func courseWalkSurvivesWrites(_ account: Credentials) async throws {
        try await withServer { client in
            // Given six more courses created in the same instant (the test clock stands still, so
            // their created_at ties and only the id orders them), and what the caller sees now
            let admin = try await client.caller(.demoAdmin)
            let caller = try await client.caller(account)
            for index in 0..<6 { _ = try await client.createCourse(as: admin, title: "Curso empatado \(index)") }
            let existing = Set(try await client.allCourses(as: caller).map(\.id))

            // When they walk the list three at a time, while between pages the last course seen is
            // deleted and, every other page, a new course is created
            var deleted: Set<String> = []
            let pages = try await Self.walk(client, "/v1/courses?limit=3", as: caller) { page, index in
                let last = try #require(page.items.last).id
                #expect(try await client.delete("/v1/courses/\(last)", as: admin).status == .noContent)
                deleted.insert(last)
                if index.isMultiple(of: 2) { _ = try await client.createCourse(as: admin, title: "Curso nuevo \(index)") }
            }

            // Then every course that existed throughout is seen, and none twice
            let seen = pages.flatMap(\.items).map(\.id)
            #expect(seen.count == Set(seen).count, "seen twice: \(seen)")
            #expect(existing.subtracting(deleted).subtracting(seen).isEmpty, "never seen")
            #expect(pages.count > 3)
            // And the first page counts the list; the pages after it carry neither page nor total
            #expect(pages.first?.total == existing.count)
            #expect(pages.first?.page == 1)
            #expect(pages.dropFirst().allSatisfy { $0.total == nil && $0.page == nil })
        }
    }

    @Test("walking the user directory by next while accounts are added and removed between pages sees each account that stayed exactly once")
    func userWalkSurvivesWrites() async throws {
        try await withServer { client in
            // Given the accounts that exist now
            let admin = try await client.caller(.demoAdmin)
            let existing = Set(try await client.allUsers(as: admin).map(\.id))

            // When the admin walks the directory two at a time, while between pages the last
            // student seen is deleted and a new account created
            var deleted: Set<String> = []
            let pages = try await Self.walk(client, "/v1/users?limit=2", as: admin) { page, index in
                for user in page.items.reversed() where user.id != admin.user.id {
                    if try await client.delete("/v1/users/\(user.id)", as: admin).status == .noContent {
                        deleted.insert(user.id)
                        break
                    }
                }
                let created = try await client.send(
                    .post, "/v1/users", as: admin,
                    body: [
                        "email": "nuevo\(index)@demo.edugo.dev", "password": "Nuevo-Alumno-2026", "first_name": "Nuevo",
                        "last_name": "Alumno", "role": "student",
                    ])
                #expect(created.status == .created, "\(created.text)")
            }

            // Then every account that existed throughout is seen, and none twice
            let seen = pages.flatMap(\.items).map(\.id)
            #expect(seen.count == Set(seen).count, "seen twice: \(seen)")
            #expect(existing.subtracting(deleted).subtracting(seen).isEmpty, "never seen")
            #expect(!deleted.isEmpty)
        }
    }

    @Test("my courses continue by next to the last enrollment, and the last page's next is null")
    func myCoursesWalk() async throws {
        try await withServer { client in
            // Given a student enrolled in every published course
            let student = try await client.caller(.demoStudent)
            let courses = try await client.allCourses(as: student)
            for course in courses {
                _ = try await client.send(.post, "/v1/courses/\(course.id)/enrollment", as: student, body: nil)
            }

            // When they walk their courses two at a time
            struct Enrolled: Decodable { var course: Identified }
            var seen: [String] = []
            var uri = "/v1/users/me/courses?limit=2"
            var pages = 0
            while pages < 100 {
                let page = try client.expectOK(ListBody<Enrolled>.self, try await client.get(uri, as: student), "my courses")
                pages += 1
                seen += page.items.map(\.course.id)
                guard let next = page.next else { break }
                uri = "/v1/users/me/courses?limit=2&after=" + next
            }

            // Then each enrolled course comes once, over several pages, until a page says there is no next
            #expect(seen.count == courses.count)
            #expect(Set(seen) == Set(courses.map(\.id)))
            #expect(pages == (courses.count + 1) / 2)
        }
    }

    static let lists = [
        "/v1/courses?limit=2", "/v1/courses/search?q=a&limit=2", "/v1/users?limit=2", "/v1/users/search?q=demo&limit=2",
        "/v1/users/me/courses?limit=2",
    ]

    static func token(_ json: String) -> String { Data(json.utf8).base64URLEncodedString() }

    static let malformed = [
        "not+base64url", "%00", "A", token("hello"), token("[\"x\",\"y\"]"), token("[\"2026-11-18 11:06:40.000\"]"),
        token("[1,2]"), token("[\"2026-11-18 11:06:40.000\",\"\"]"), token("[\"2026-11-18T11:06:40Z\",\"id\"]"),
        token("{\"a\":1}"), String(repeating: "A", count: 600),
    ]

    @Test("an after the server did not issue answers 400 validation_failed naming after, on every list", arguments: lists)
    func malformedAfter(_ list: String) async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            for after in Self.malformed {
                let response = try await client.get(list + "&after=" + after, as: admin)
                let problem = try expectProblem(response, .badRequest, "validation_failed")
                #expect(problem.errors?.map(\.field) == ["after"], "\(after)")
            }
        }
    }

    @Test("after together with page answers 400 validation_failed naming after", arguments: lists)
    func afterWithPage(_ list: String) async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let next = Self.token("[\"2026-11-18 11:06:40.000\",\"some-id\"]")
            #expect(try await client.get(list + "&after=" + next, as: admin).status == .ok, "a well-formed cursor alone is fine")

            let response = try await client.get(list + "&page=2&after=" + next, as: admin)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["after"])
        }
    }

    @Test("page= keeps answering page and total as before, and carries next too")
    func offsetPagesStay() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let second = try client.expectOK(
                ListBody<Identified>.self, try await client.get("/v1/courses?limit=3&page=2", as: student), "page 2")
            let third = try client.expectOK(
                ListBody<Identified>.self, try await client.get("/v1/courses?limit=3&page=3", as: student), "page 3")
            let continued = try client.expectOK(
                ListBody<Identified>.self,
                try await client.get("/v1/courses?limit=3&after=" + (try #require(second.next)), as: student), "after page 2")

            #expect(second.page == 2)
            #expect(second.total == 7)
            #expect(continued.items.map(\.id) == third.items.map(\.id))
            #expect(third.next == nil)
        }
    }

    @Test(
        "over HTTP, every page by number is the slice of the list walked by next, for each role",
        arguments: [Credentials.demoStudent, .demoTeacher, .demoAdmin])
    func pagesByNumberAreSlicesOfTheWalk(_ account: Credentials) async throws {
        try await withServer { client in
            // Given the role's whole list, walked 3 a page by next
            let caller = try await client.caller(account)
            let walked = try await Self.walk(client, "/v1/courses?limit=3", as: caller) { _, _ in }.flatMap(\.items).map(\.id)
            #expect(walked.count > 6)

            for number in 1...(walked.count / 3 + 1) {
                // When each page is asked for by its number
                let page = try client.expectOK(
                    ListBody<Identified>.self, try await client.get("/v1/courses?limit=3&page=\(number)", as: caller),
                    "page \(number)")

                // Then it holds the walk's rows at its place, and the total is the walk's length
                #expect(page.items.map(\.id) == Array(walked.dropFirst((number - 1) * 3).prefix(3)), "page \(number)")
                #expect(page.total == walked.count)
            }
        }
    }

    @Test(
        "a search walked by next over more courses than it first looks at finds every match once, newest first, for a word all hold and one few do",
        arguments: [("ventana", 1), ("escaso", 9)])
    func searchWalkFindsEveryMatch(_ word: String, _ oneIn: Int) async throws {
        try await withServer { client in
            // Given 100 published courses created in one instant (so the id orders them), each
            // saying "ventana" and every ninth "escaso"; a search of 5 a page first looks at the
            // newest 24 courses (``SearchWindow``), which "escaso" does not fill
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)
            var expected: [String] = []
            for index in 0..<100 {
                let title = "Curso ventana \(index)" + (index.isMultiple(of: 9) ? " escaso" : "")
                let course = try await client.createCourse(as: admin, title: title)
                if index.isMultiple(of: oneIn) { expected.append(course.id) }
            }
            expected.sort(by: >)

            // When a student walks the search by next
            let pages = try await Self.walk(client, "/v1/courses/search?q=\(word)&limit=5", as: student) { _, _ in }

            // Then every match is seen once, in the list's order, and the first page counts them all
            #expect(pages.flatMap(\.items).map(\.id) == expected)
            #expect(pages.first?.total == expected.count)
        }
    }
}
