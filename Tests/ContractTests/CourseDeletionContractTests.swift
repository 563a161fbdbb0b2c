import Foundation
import Testing

/// `deleteCourse`.
@Suite(.timeLimit(.minutes(3))) struct CourseDeletionContractTests {
    @Test("deleteCourse by the owner answers 204 and the course is gone")
    func deletesACourse() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()

            _ = try await teacher.client.deleteCourse(path: .init(id: course.id)).noContent

            let output = try await teacher.client.getCourse(path: .init(id: course.id))
            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }

    @Test("deleteCourse by another teacher answers 403 forbidden")
    func refusesOtherTeachers() async throws {
        try await ContractHarness.with { api in
            let owner = try await api.signIn(.demoTeacher)
            let other = try await api.signIn(.demoOtherTeacher)
            let course = try await owner.createCourse()

            let output = try await other.client.deleteCourse(path: .init(id: course.id))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("deleteCourse of a course that does not exist answers 404 not_found")
    func refusesAnUnknownCourse() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)

            let output = try await admin.client.deleteCourse(path: .init(id: "no-such-course"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
