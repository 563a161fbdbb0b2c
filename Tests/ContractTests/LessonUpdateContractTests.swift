import Foundation
import Testing

/// `updateLesson`.
@Suite(.timeLimit(.minutes(3))) struct LessonUpdateContractTests {
    @Test("updateLesson by the owner with the body version answers 200 with the next version and its ETag")
    func updatesWithTheBodyVersion() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)

            let ok = try await teacher.client.updateLesson(
                path: .init(id: course.id, lessonId: lesson.id),
                body: .json(.init(title: "Retitled", durationMinutes: 25, version: lesson.version))
            ).ok

            let updated = try ok.body.json
            #expect(updated.title == "Retitled")
            #expect(updated.durationMinutes == 25)
            #expect(updated.version == lesson.version + 1)
            #expect(ok.headers.eTag == "\"\(updated.version)\"")
        }
    }

    @Test("updateLesson with a stale body version answers 409 version_conflict carrying the current lesson")
    func refusesAStaleBodyVersion() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)
            let path = Operations.UpdateLesson.Input.Path(id: course.id, lessonId: lesson.id)
            let current = try await teacher.client.updateLesson(
                path: path, headers: .init(ifMatch: "\"1\""), body: .json(.init(title: "First edit"))
            ).ok.body.json

            let output = try await teacher.client.updateLesson(
                path: path, body: .json(.init(title: "Second edit", version: lesson.version)))

            let problem = try output.conflict.body.applicationProblemJson
            expectProblem(problem, status: 409, code: "version_conflict")
            #expect(problem.currentVersion == current.version)
            #expect(problem.current?.value3 == current)
        }
    }

    @Test("updateLesson with a stale If-Match answers 412 version_conflict carrying the current lesson")
    func refusesAStaleIfMatch() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)

            let output = try await teacher.client.updateLesson(
                path: .init(id: course.id, lessonId: lesson.id), headers: .init(ifMatch: "\"2\""),
                body: .json(.init(title: "Late edit")))

            let problem = try output.preconditionFailed.body.applicationProblemJson
            expectVersionConflict(problem, status: 412, currentVersion: 1)
            #expect(problem.current.value3 == lesson)
        }
    }

    @Test("updateLesson without If-Match or a body version answers 428 precondition_required")
    func requiresABaseVersion() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)

            let output = try await teacher.client.updateLesson(
                path: .init(id: course.id, lessonId: lesson.id), body: .json(.init(title: "Unversioned")))

            expectProblem(
                try output.preconditionRequired.body.applicationProblemJson, status: 428, code: "precondition_required")
        }
    }

    @Test("updateLesson by another teacher answers 403 forbidden")
    func refusesOtherTeachers() async throws {
        try await ContractHarness.with { api in
            let owner = try await api.signIn(.demoTeacher)
            let other = try await api.signIn(.demoOtherTeacher)
            let course = try await owner.createCourse()
            let lesson = try await owner.createLesson(in: course.id)

            let output = try await other.client.updateLesson(
                path: .init(id: course.id, lessonId: lesson.id), body: .json(.init(title: "Hijacked", version: 1)))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("updateLesson with order 0 answers 400 validation_failed for order")
    func refusesOrderZero() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)

            let output = try await teacher.client.updateLesson(
                path: .init(id: course.id, lessonId: lesson.id), body: .json(.init(order: 0, version: 1)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["order"])
        }
    }

    @Test("updateLesson of a lesson that does not exist answers 404 not_found")
    func refusesAnUnknownLesson() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()

            let output = try await teacher.client.updateLesson(
                path: .init(id: course.id, lessonId: "no-such-lesson"), body: .json(.init(title: "Nothing", version: 1)))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
