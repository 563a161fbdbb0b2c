import Foundation
import Testing

/// `putProgress`.
@Suite(.timeLimit(.minutes(3))) struct ProgressWriteContractTests {
    /// A course with one lesson and an enrolled student.
    struct Enrolled {
        var student: SignedInClient
        var course: Components.Schemas.Course
        var lesson: Components.Schemas.Lesson
    }

    static func enrolled(_ api: ContractHarness) async throws -> Enrolled {
        let teacher = try await api.signIn(.demoTeacher)
        let student = try await api.signIn(.demoStudent)
        let course = try await teacher.createCourse()
        let lesson = try await teacher.createLesson(in: course.id)
        try await student.enroll(in: course.id)
        return Enrolled(student: student, course: course, lesson: lesson)
    }

    @Test("putProgress for a lesson without progress answers 200 with version 1, no base version needed")
    func createsTheFirstRecord() async throws {
        try await ContractHarness.with { api in
            let given = try await Self.enrolled(api)

            let ok = try await given.student.client.putProgress(
                path: .init(id: given.course.id), body: .json(.init(lessonId: given.lesson.id, watchedSeconds: 90))
            ).ok

            let progress = try ok.body.json
            #expect(progress.lessonId == given.lesson.id)
            #expect(progress.watchedSeconds == 90)
            #expect(progress.completed == false)
            #expect(progress.completedAt == nil)
            #expect(progress.version == 1)
            #expect(ok.headers.eTag == "\"1\"")
            #expect(ok.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("putProgress completing a lesson with the current If-Match answers 200 with completed_at set")
    func completesALesson() async throws {
        try await ContractHarness.with { api in
            let given = try await Self.enrolled(api)
            let first = try await given.student.startProgress(in: given.course.id, lessonID: given.lesson.id)

            let progress = try await given.student.client.putProgress(
                path: .init(id: given.course.id), headers: .init(ifMatch: "\"\(first.version)\""),
                body: .json(.init(lessonId: given.lesson.id, completed: true))
            ).ok.body.json

            #expect(progress.completed)
            #expect(progress.completedAt != nil)
            #expect(progress.version == first.version + 1)
        }
    }

    @Test("putProgress again without If-Match or a body version answers 428 precondition_required")
    func requiresABaseVersionLater() async throws {
        try await ContractHarness.with { api in
            let given = try await Self.enrolled(api)
            _ = try await given.student.startProgress(in: given.course.id, lessonID: given.lesson.id)

            let output = try await given.student.client.putProgress(
                path: .init(id: given.course.id), body: .json(.init(lessonId: given.lesson.id, watchedSeconds: 120)))

            expectProblem(
                try output.preconditionRequired.body.applicationProblemJson, status: 428, code: "precondition_required")
        }
    }

    @Test("putProgress with a stale body version answers 409 version_conflict carrying the current progress")
    func refusesAStaleBodyVersion() async throws {
        try await ContractHarness.with { api in
            let given = try await Self.enrolled(api)
            let first = try await given.student.startProgress(in: given.course.id, lessonID: given.lesson.id)
            let current = try await given.student.client.putProgress(
                path: .init(id: given.course.id),
                body: .json(.init(lessonId: given.lesson.id, watchedSeconds: 200, version: first.version))
            ).ok.body.json

            let output = try await given.student.client.putProgress(
                path: .init(id: given.course.id),
                body: .json(.init(lessonId: given.lesson.id, watchedSeconds: 300, version: first.version)))

            let problem = try output.conflict.body.applicationProblemJson
            expectProblem(problem, status: 409, code: "version_conflict")
            #expect(problem.currentVersion == current.version)
            #expect(problem.current?.value4 == current)
        }
    }

    @Test("putProgress with a stale If-Match answers 412 version_conflict carrying the current progress")
    func refusesAStaleIfMatch() async throws {
        try await ContractHarness.with { api in
            let given = try await Self.enrolled(api)
            let first = try await given.student.startProgress(in: given.course.id, lessonID: given.lesson.id)

            let output = try await given.student.client.putProgress(
                path: .init(id: given.course.id), headers: .init(ifMatch: "\"9\""),
                body: .json(.init(lessonId: given.lesson.id, completed: true)))

            let problem = try output.preconditionFailed.body.applicationProblemJson
            expectVersionConflict(problem, status: 412, currentVersion: first.version)
            #expect(problem.current.value4 == first)
        }
    }

    @Test("putProgress by a learner who is not enrolled answers 403 not_enrolled")
    func refusesLearnersNotEnrolled() async throws {
        try await ContractHarness.with { api in
            let given = try await Self.enrolled(api)
            let outsider = try await api.signIn(.demoOtherStudent)

            let output = try await outsider.client.putProgress(
                path: .init(id: given.course.id), body: .json(.init(lessonId: given.lesson.id, completed: true)))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "not_enrolled")
        }
    }

    @Test("putProgress naming a lesson of another course answers 404 not_found")
    func refusesALessonOfAnotherCourse() async throws {
        try await ContractHarness.with { api in
            let given = try await Self.enrolled(api)
            let teacher = try await api.signIn(.demoTeacher)
            let other = try await teacher.createCourse(title: "Other")
            let foreign = try await teacher.createLesson(in: other.id)

            let output = try await given.student.client.putProgress(
                path: .init(id: given.course.id), body: .json(.init(lessonId: foreign.id, completed: true)))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }

    @Test("putProgress with more than a day watched answers 400 validation_failed for watched_seconds")
    func refusesTooManySeconds() async throws {
        try await ContractHarness.with { api in
            let given = try await Self.enrolled(api)

            let output = try await given.student.client.putProgress(
                path: .init(id: given.course.id), body: .json(.init(lessonId: given.lesson.id, watchedSeconds: 86_401)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["watched_seconds"])
        }
    }
}
