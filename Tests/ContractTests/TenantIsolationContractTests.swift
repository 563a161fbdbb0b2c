import Foundation
import Testing

/// Another tenant's objects answer 404, never 403: no existence leak across tenants.
@Suite(.timeLimit(.minutes(3))) struct TenantIsolationContractTests {
    @Test("a course of another tenant answers 404 not_found, even to its admin")
    func hidesOtherTenantsCourses() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let acmeAdmin = try await api.signIn(.acmeAdmin)
            let course = try await teacher.createCourse()

            let output = try await acmeAdmin.client.getCourse(path: .init(id: course.id))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }

    @Test("a user of another tenant answers 404 not_found, even to its admin")
    func hidesOtherTenantsUsers() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)
            let acmeAdmin = try await api.signIn(.acmeAdmin)

            let output = try await acmeAdmin.client.getUser(path: .init(id: student.user.id))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
