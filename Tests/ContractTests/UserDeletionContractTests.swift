import Foundation
import Testing

/// `deleteUser`.
@Suite(.timeLimit(.minutes(3))) struct UserDeletionContractTests {
    @Test("deleteUser by an admin answers 204 and the user is gone")
    func deletesAUser() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let user = try await admin.client.createUser(body: .json(UserCreationContractTests.newUser(role: .student)))
                .created.body.json

            _ = try await admin.client.deleteUser(path: .init(id: user.id)).noContent

            let output = try await admin.client.getUser(path: .init(id: user.id))
            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }

    @Test("deleteUser of their own account by an admin answers 409 cannot_delete_self")
    func refusesSelfDeletion() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let output = try await admin.client.deleteUser(path: .init(id: admin.user.id))

            expectProblem(try output.conflict.body.applicationProblemJson, status: 409, code: "cannot_delete_self")
        }
    }

    @Test("deleteUser of a teacher who still teaches courses answers 409 user_owns_courses")
    func refusesDeletingACourseOwner() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let teacher = try await api.signIn(.demoTeacher)

            let output = try await admin.client.deleteUser(path: .init(id: teacher.user.id))

            expectProblem(try output.conflict.body.applicationProblemJson, status: 409, code: "user_owns_courses")
        }
    }

    @Test("deleteUser by a teacher answers 403 forbidden")
    func refusesTeachers() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)

            let output = try await teacher.client.deleteUser(path: .init(id: student.user.id))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("deleteUser of a user that does not exist answers 404 not_found")
    func refusesAnUnknownUser() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let output = try await admin.client.deleteUser(path: .init(id: "no-such-user"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
