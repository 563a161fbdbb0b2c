import Foundation
import Testing

/// `getCourse`.
@Suite(.timeLimit(.minutes(3))) struct CourseReadContractTests {
    @Test("getCourse answers 200 with the course, its ETag and private caching")
    func answersTheCourse() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse()

            let ok = try await student.client.getCourse(path: .init(id: course.id)).ok

            #expect(try ok.body.json == course)
            #expect(ok.headers.eTag == "\"\(course.version)\"")
            #expect(ok.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("getCourse with a matching If-None-Match answers 304 with the ETag")
    func answersNotModified() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()

            let notModified = try await teacher.client.getCourse(
                path: .init(id: course.id), headers: .init(ifNoneMatch: "\"\(course.version)\"")
            ).notModified

            #expect(notModified.headers.eTag == "\"\(course.version)\"")
        }
    }

    @Test("getCourse of an unpublished course by a student answers 404 not_found")
    func hidesDraftsFromStudents() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let draft = try await teacher.createCourse(published: false)

            let output = try await student.client.getCourse(path: .init(id: draft.id))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
