import Foundation
import Testing

/// `createLesson` and `listLessons`.
@Suite(.timeLimit(.minutes(3))) struct LessonAuthoringContractTests {
    @Test("createLesson by the owner answers 201 with the lesson after the last one, its Location and ETag \"1\"")
    func addsALesson() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            _ = try await teacher.createLesson(in: course.id, title: "One")

            let created = try await teacher.client.createLesson(
                path: .init(id: course.id),
                body: .json(.init(title: "Two", content: "Text", durationMinutes: 12, videoUrl: "https://video.example.com/2"))
            ).created

            let lesson = try created.body.json
            #expect(lesson.courseId == course.id)
            #expect(lesson.order == 2)
            #expect(lesson.durationMinutes == 12)
            #expect(lesson.videoUrl == "https://video.example.com/2")
            #expect(lesson.version == 1)
            #expect(created.headers.location == "/v1/courses/\(course.id)/lessons/\(lesson.id)")
            #expect(created.headers.eTag == "\"1\"")
        }
    }

    @Test("createLesson by a student answers 403 forbidden")
    func refusesStudents() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse()

            let output = try await student.client.createLesson(path: .init(id: course.id), body: .json(.init(title: "Mine")))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("createLesson with a duration over a day answers 400 validation_failed for duration_minutes")
    func refusesAnOverlongDuration() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()

            let output = try await teacher.client.createLesson(
                path: .init(id: course.id), body: .json(.init(title: "Marathon", durationMinutes: 1441)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["duration_minutes"])
        }
    }

    @Test("createLesson in a course that does not exist answers 404 not_found")
    func refusesAnUnknownCourse() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)

            let output = try await teacher.client.createLesson(path: .init(id: "no-such-course"), body: .json(.init(title: "Lost")))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }

    @Test("listLessons answers 200 with the course's lessons ordered by order")
    func listsInOrder() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse()
            let second = try await teacher.client.createLesson(
                path: .init(id: course.id), body: .json(.init(title: "Second", order: 2))
            ).created.body.json
            let first = try await teacher.client.createLesson(
                path: .init(id: course.id), body: .json(.init(title: "First", order: 1))
            ).created.body.json

            let ok = try await student.client.listLessons(path: .init(id: course.id)).ok

            #expect(try ok.body.json.items.map(\.id) == [first.id, second.id])
            #expect(ok.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("listLessons of an unpublished course by a student answers 404 not_found")
    func hidesDraftLessons() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let draft = try await teacher.createCourse(published: false)

            let output = try await student.client.listLessons(path: .init(id: draft.id))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
