import Foundation
import Testing

/// `listUsers` and `searchUsers`.
@Suite(.timeLimit(.minutes(3))) struct UserDirectoryContractTests {
    @Test("listUsers answers 200 with one page of users and the total")
    func listsAPage() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let ok = try await admin.client.listUsers(query: .init(page: 2, limit: 3)).ok

            let page = try ok.body.json
            #expect(page.page == 2)
            #expect(page.limit == 3)
            #expect(page.items.count == 3)
            #expect((page.total ?? 0) >= 9)
            #expect(ok.headers.cacheControl == .noStore)
        }
    }

    @Test("listUsers filtered by role answers only users of that role")
    func filtersByRole() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)

            let page = try await teacher.client.listUsers(query: .init(role: .teacher)).ok.body.json

            #expect(!page.items.isEmpty)
            #expect(page.items.allSatisfy { $0.role == .teacher })
        }
    }

    @Test("listUsers with a page size over 100 answers 400 validation_failed for limit")
    func refusesAnOversizedPage() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let output = try await admin.client.listUsers(query: .init(limit: 101))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["limit"])
        }
    }

    @Test("listUsers by a student answers 403 forbidden")
    func refusesStudents() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.listUsers()

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("searchUsers answers 200 with the users whose name or email matches")
    func searchesByName() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let ok = try await admin.client.searchUsers(query: .init(q: "teacher1")).ok

            let page = try ok.body.json
            #expect(page.items.map(\.email) == [TestAccount.demoTeacher.email])
            #expect(page.total == 1)
        }
    }

    @Test("searchUsers with only blanks as the query answers 400 validation_failed for q")
    func refusesABlankQuery() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let output = try await admin.client.searchUsers(query: .init(q: "   "))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["q"])
        }
    }

    @Test("searchUsers by a student answers 403 forbidden")
    func refusesStudentSearches() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.searchUsers(query: .init(q: "teacher"))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }
}
