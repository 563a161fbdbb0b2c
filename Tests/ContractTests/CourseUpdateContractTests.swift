import Foundation
import Testing

/// `updateCourse`.
@Suite(.timeLimit(.minutes(3))) struct CourseUpdateContractTests {
    @Test("updateCourse by the owner with the current If-Match answers 200 with the next version and its ETag")
    func updatesWithIfMatch() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse(published: false)

            let ok = try await teacher.client.updateCourse(
                path: .init(id: course.id), headers: .init(ifMatch: "\"\(course.version)\""),
                body: .json(.init(title: "Renamed", published: true))
            ).ok

            let updated = try ok.body.json
            #expect(updated.title == "Renamed")
            #expect(updated.published)
            #expect(updated.version == course.version + 1)
            #expect(ok.headers.eTag == "\"\(updated.version)\"")
            #expect(ok.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("updateCourse with a stale body version answers 409 version_conflict carrying the current course")
    func refusesAStaleBodyVersion() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let current = try await teacher.client.updateCourse(
                path: .init(id: course.id), body: .json(.init(title: "First edit", version: course.version))
            ).ok.body.json

            let output = try await teacher.client.updateCourse(
                path: .init(id: course.id), body: .json(.init(title: "Second edit", version: course.version)))

            let problem = try output.conflict.body.applicationProblemJson
            expectProblem(problem, status: 409, code: "version_conflict")
            #expect(problem.currentVersion == current.version)
            #expect(problem.current?.value2 == current)
        }
    }

    @Test("updateCourse with a stale If-Match answers 412 version_conflict carrying the current course")
    func refusesAStaleIfMatch() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()

            let output = try await teacher.client.updateCourse(
                path: .init(id: course.id), headers: .init(ifMatch: "\"\(course.version + 1)\""),
                body: .json(.init(title: "Late edit")))

            let problem = try output.preconditionFailed.body.applicationProblemJson
            expectVersionConflict(problem, status: 412, currentVersion: course.version)
            #expect(problem.current.value2 == course)
        }
    }

    @Test("updateCourse without If-Match or a body version answers 428 precondition_required")
    func requiresABaseVersion() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()

            let output = try await teacher.client.updateCourse(
                path: .init(id: course.id), body: .json(.init(title: "Unversioned")))

            expectProblem(
                try output.preconditionRequired.body.applicationProblemJson, status: 428, code: "precondition_required")
        }
    }

    @Test("updateCourse by another teacher answers 403 forbidden")
    func refusesOtherTeachers() async throws {
        try await ContractHarness.with { api in
            let owner = try await api.signIn(.demoTeacher)
            let other = try await api.signIn(.demoOtherTeacher)
            let course = try await owner.createCourse()

            let output = try await other.client.updateCourse(
                path: .init(id: course.id), body: .json(.init(title: "Hijacked", version: course.version)))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("updateCourse with a title over 200 characters answers 400 validation_failed for title")
    func refusesALongTitle() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()

            let output = try await teacher.client.updateCourse(
                path: .init(id: course.id),
                body: .json(.init(title: String(repeating: "t", count: 201), version: course.version)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["title"])
        }
    }

    @Test("updateCourse of a course that does not exist answers 404 not_found")
    func refusesAnUnknownCourse() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)

            let output = try await teacher.client.updateCourse(
                path: .init(id: "no-such-course"), body: .json(.init(title: "Nothing", version: 1)))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
