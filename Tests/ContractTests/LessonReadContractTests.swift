import Foundation
import Testing

/// `getLesson`.
@Suite(.timeLimit(.minutes(3))) struct LessonReadContractTests {
    @Test("getLesson answers 200 with the lesson, its ETag and private caching")
    func answersTheLesson() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)

            let ok = try await student.client.getLesson(path: .init(id: course.id, lessonId: lesson.id)).ok

            #expect(try ok.body.json == lesson)
            #expect(ok.headers.eTag == "\"1\"")
            #expect(ok.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("getLesson with a matching If-None-Match answers 304 with the ETag")
    func answersNotModified() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)

            let notModified = try await teacher.client.getLesson(
                path: .init(id: course.id, lessonId: lesson.id), headers: .init(ifNoneMatch: "\"7\", \"1\"")
            ).notModified

            #expect(notModified.headers.eTag == "\"1\"")
        }
    }

    @Test("getLesson of a lesson of another course answers 404 not_found")
    func refusesALessonOfAnotherCourse() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let other = try await teacher.createCourse(title: "Other")
            let lesson = try await teacher.createLesson(in: other.id)

            let output = try await teacher.client.getLesson(path: .init(id: course.id, lessonId: lesson.id))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
