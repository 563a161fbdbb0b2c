import Foundation
import Testing

/// `deleteLesson`.
@Suite(.timeLimit(.minutes(3))) struct LessonDeletionContractTests {
    @Test("deleteLesson by the owner answers 204 and the lesson is gone")
    func deletesALesson() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)

            _ = try await teacher.client.deleteLesson(path: .init(id: course.id, lessonId: lesson.id)).noContent

            let output = try await teacher.client.getLesson(path: .init(id: course.id, lessonId: lesson.id))
            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }

    @Test("deleteLesson by a student answers 403 forbidden")
    func refusesStudents() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)

            let output = try await student.client.deleteLesson(path: .init(id: course.id, lessonId: lesson.id))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("deleteLesson of a lesson that does not exist answers 404 not_found")
    func refusesAnUnknownLesson() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()

            let output = try await teacher.client.deleteLesson(path: .init(id: course.id, lessonId: "no-such-lesson"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
