import Foundation
import Testing

/// `listMyCourses`.
@Suite(.timeLimit(.minutes(3))) struct MyCoursesContractTests {
    @Test("listMyCourses answers 200 with the enrolled courses and the caller's progress in each")
    func listsEnrolledCoursesWithProgress() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoOtherStudent)
            let course = try await teacher.createCourse()
            let first = try await teacher.createLesson(in: course.id)
            _ = try await teacher.createLesson(in: course.id)
            try await student.enroll(in: course.id)
            _ = try await student.client.putProgress(
                path: .init(id: course.id), body: .json(.init(lessonId: first.id, completed: true))
            ).ok

            let ok = try await student.client.listMyCourses(query: .init(limit: 100)).ok

            let page = try ok.body.json
            let entry = try #require(page.items.first { $0.course.id == course.id })
            #expect(entry.totalLessons == 2)
            #expect(entry.completedLessons == 1)
            #expect(entry.percent == 50)
            #expect(page.total == Int64(page.items.count))
            #expect(ok.headers.cacheControl == .noStore)
        }
    }

    @Test("listMyCourses with page 0 answers 400 validation_failed for page")
    func refusesPageZero() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.listMyCourses(query: .init(page: 0))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["page"])
        }
    }
}
