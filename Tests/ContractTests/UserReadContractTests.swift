import Foundation
import Testing

/// `getUser`.
@Suite(.timeLimit(.minutes(3))) struct UserReadContractTests {
    @Test("getUser answers 200 with the user and ETag \"<version>\"")
    func answersTheUserWithItsETag() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)

            let ok = try await teacher.client.getUser(path: .init(id: student.user.id)).ok

            #expect(try ok.body.json == student.user)
            #expect(ok.headers.eTag == "\"\(student.user.version)\"")
            #expect(ok.headers.cacheControl == .noStore)
        }
    }

    @Test("getUser with a matching If-None-Match answers 304 with the ETag and no body")
    func answersNotModified() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)
            let etag = try await student.client.getUser(path: .init(id: student.user.id)).ok.headers.eTag

            let notModified = try await student.client.getUser(
                path: .init(id: student.user.id), headers: .init(ifNoneMatch: etag)
            ).notModified

            #expect(notModified.headers.eTag == etag)
        }
    }

    @Test("getUser of another user by a student answers 404 not_found")
    func hidesOtherUsersFromStudents() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)
            let teacher = try await api.signIn(.demoTeacher)

            let output = try await student.client.getUser(path: .init(id: teacher.user.id))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
