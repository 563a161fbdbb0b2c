import Foundation
import Testing

/// `listCourses` and `searchCourses`.
@Suite(.timeLimit(.minutes(3))) struct CourseCatalogContractTests {
    @Test("listCourses by a student answers 200 with published courses only, privately cacheable")
    func studentsSeePublishedCourses() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let draft = try await teacher.createCourse(title: "Unpublished draft", published: false)

            let ok = try await student.client.listCourses(query: .init(limit: 100)).ok

            let page = try ok.body.json
            #expect(!page.items.isEmpty)
            #expect(page.items.allSatisfy { $0.published })
            #expect(!page.items.contains { $0.id == draft.id })
            #expect(ok.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("listCourses filtered by category answers only courses of that category")
    func filtersByCategory() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let page = try await student.client.listCourses(query: .init(category: .mathematics)).ok.body.json

            #expect(!page.items.isEmpty)
            #expect(page.items.allSatisfy { $0.category == .mathematics })
        }
    }

    @Test("listCourses with page 0 answers 400 validation_failed for page")
    func refusesPageZero() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.listCourses(query: .init(page: 0))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["page"])
        }
    }

    @Test("listCourses continued with after answers the next page without page or total, and null next at the end")
    func continuesWithAfter() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)
            let first = try await student.client.listCourses(query: .init(limit: 3)).ok.body.json
            var ids = first.items.map(\.id)
            var next = first.next

            while let after = next, ids.count < 200 {
                let page = try await student.client.listCourses(query: .init(after: after, limit: 3)).ok.body.json
                #expect(page.page == nil && page.total == nil)
                ids += page.items.map(\.id)
                next = page.next
            }

            #expect(first.total == Int64(ids.count))
            #expect(Set(ids).count == ids.count)
        }
    }

    @Test("listCourses with after and page together answers 400 validation_failed for after")
    func refusesAfterWithPage() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)
            let first = try await student.client.listCourses(query: .init(limit: 3)).ok.body.json
            let after = try #require(first.next)

            let output = try await student.client.listCourses(query: .init(page: 2, after: after))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["after"])
        }
    }

    @Test("searchCourses answers 200 with the courses whose title matches")
    func searchesTitles() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse(title: "Quantum Knitting for Beginners")

            let ok = try await student.client.searchCourses(query: .init(q: "quantum knitting")).ok

            let page = try ok.body.json
            #expect(page.items.map(\.id) == [course.id])
            #expect(page.total == 1)
            #expect(ok.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("searchCourses with only blanks as the query answers 400 validation_failed for q")
    func refusesABlankQuery() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.searchCourses(query: .init(q: " "))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["q"])
        }
    }
}
