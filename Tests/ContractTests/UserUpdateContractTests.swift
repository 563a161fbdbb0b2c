import Foundation
import Testing

/// `updateUser`.
@Suite(.timeLimit(.minutes(3))) struct UserUpdateContractTests {
    @Test("updateUser by an admin with the current If-Match answers 200 with the next version and its ETag")
    func updatesWithIfMatch() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let student = try await api.signIn(.demoStudent)

            let ok = try await admin.client.updateUser(
                path: .init(id: student.user.id), headers: .init(ifMatch: "\"\(student.user.version)\""),
                body: .json(.init(lastName: "Renamed", role: .teacher))
            ).ok

            let user = try ok.body.json
            #expect(user.lastName == "Renamed")
            #expect(user.role == .teacher)
            #expect(user.version == student.user.version + 1)
            #expect(ok.headers.eTag == "\"\(user.version)\"")
        }
    }

    @Test("updateUser with a stale body version answers 409 version_conflict carrying the current user")
    func refusesAStaleBodyVersion() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)
            let current = try await student.client.updateMyProfile(
                body: .json(.init(firstName: "First", version: student.user.version))
            ).ok.body.json

            let output = try await student.client.updateUser(
                path: .init(id: student.user.id), body: .json(.init(firstName: "Second", version: student.user.version)))

            let problem = try output.conflict.body.applicationProblemJson
            expectProblem(problem, status: 409, code: "version_conflict")
            #expect(problem.currentVersion == current.version)
            #expect(problem.current?.value1 == current)
        }
    }

    @Test("updateUser with a stale If-Match answers 412 version_conflict carrying the current user")
    func refusesAStaleIfMatch() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let student = try await api.signIn(.demoStudent)

            let output = try await admin.client.updateUser(
                path: .init(id: student.user.id), headers: .init(ifMatch: "\"\(student.user.version + 5)\""),
                body: .json(.init(firstName: "Late")))

            let problem = try output.preconditionFailed.body.applicationProblemJson
            expectVersionConflict(problem, status: 412, currentVersion: student.user.version)
            #expect(problem.current.value1 == student.user)
        }
    }

    @Test("updateUser changing the email to one already in the tenant answers 409 email_taken")
    func refusesATakenEmail() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let student = try await api.signIn(.demoStudent)

            let output = try await admin.client.updateUser(
                path: .init(id: student.user.id),
                body: .json(.init(email: TestAccount.demoOtherStudent.email, version: student.user.version)))

            expectProblem(try output.conflict.body.applicationProblemJson, status: 409, code: "email_taken")
        }
    }

    @Test("updateUser making a teacher who owns courses a student answers 409 user_owns_courses")
    func refusesDemotingACourseOwner() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let teacher = try await api.signIn(.demoTeacher)

            let output = try await admin.client.updateUser(
                path: .init(id: teacher.user.id), body: .json(.init(role: .student, version: teacher.user.version)))

            expectProblem(try output.conflict.body.applicationProblemJson, status: 409, code: "user_owns_courses")
        }
    }

    @Test("updateUser without If-Match or a body version answers 428 precondition_required")
    func requiresABaseVersion() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let student = try await api.signIn(.demoStudent)

            let output = try await admin.client.updateUser(
                path: .init(id: student.user.id), body: .json(.init(firstName: "Unversioned")))

            expectProblem(
                try output.preconditionRequired.body.applicationProblemJson, status: 428, code: "precondition_required")
        }
    }

    @Test("updateUser of their own role by a student answers 403 field_not_writable")
    func refusesSelfPromotion() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.updateUser(
                path: .init(id: student.user.id), body: .json(.init(role: .admin, version: student.user.version)))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "field_not_writable")
        }
    }

    @Test("updateUser with a first name of only blanks answers 400 validation_failed")
    func refusesABlankName() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.updateUser(
                path: .init(id: student.user.id), body: .json(.init(firstName: "", version: student.user.version)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["first_name"])
        }
    }

    @Test("updateUser of a user that does not exist answers 404 not_found")
    func refusesAnUnknownUser() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let output = try await admin.client.updateUser(
                path: .init(id: "no-such-user"), body: .json(.init(firstName: "Nobody", version: 1)))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
