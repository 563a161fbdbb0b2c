import Foundation
import Testing

/// `getMyProfile` and `updateMyProfile`.
@Suite(.timeLimit(.minutes(3))) struct OwnProfileContractTests {
    @Test("getMyProfile answers 200 with the caller and their ETag")
    func answersTheCaller() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let ok = try await student.client.getMyProfile().ok

            #expect(try ok.body.json == student.user)
            #expect(ok.headers.eTag == "\"\(student.user.version)\"")
            #expect(ok.headers.cacheControl == .noStore)
        }
    }

    @Test("updateMyProfile with the body version answers 200 with the next version and its ETag")
    func updatesWithTheBodyVersion() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let ok = try await student.client.updateMyProfile(
                body: .json(.init(firstName: "Anita", version: student.user.version))
            ).ok

            let user = try ok.body.json
            #expect(user.firstName == "Anita")
            #expect(user.version == student.user.version + 1)
            #expect(ok.headers.eTag == "\"\(user.version)\"")
        }
    }

    @Test("updateMyProfile with a stale body version answers 409 version_conflict carrying the current profile")
    func refusesAStaleBodyVersion() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)
            let current = try await student.client.updateMyProfile(
                headers: .init(ifMatch: "\"\(student.user.version)\""), body: .json(.init(lastName: "First"))
            ).ok.body.json

            let output = try await student.client.updateMyProfile(
                body: .json(.init(lastName: "Second", version: student.user.version)))

            let problem = try output.conflict.body.applicationProblemJson
            expectProblem(problem, status: 409, code: "version_conflict")
            #expect(problem.currentVersion == current.version)
            #expect(problem.current?.value1 == current)
        }
    }

    @Test("updateMyProfile with a stale If-Match answers 412 version_conflict")
    func refusesAStaleIfMatch() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.updateMyProfile(
                headers: .init(ifMatch: "\"\(student.user.version + 1)\""), body: .json(.init(lastName: "Late")))

            let problem = try output.preconditionFailed.body.applicationProblemJson
            expectVersionConflict(problem, status: 412, currentVersion: student.user.version)
            #expect(problem.current.value1 == student.user)
        }
    }

    @Test("updateMyProfile without If-Match or a body version answers 428 precondition_required")
    func requiresABaseVersion() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.updateMyProfile(body: .json(.init(lastName: "Unversioned")))

            expectProblem(
                try output.preconditionRequired.body.applicationProblemJson, status: 428, code: "precondition_required")
        }
    }

    @Test("updateMyProfile with a last name over 100 characters answers 400 validation_failed")
    func refusesALongName() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.updateMyProfile(
                body: .json(.init(lastName: String(repeating: "a", count: 101), version: student.user.version)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["last_name"])
        }
    }
}
