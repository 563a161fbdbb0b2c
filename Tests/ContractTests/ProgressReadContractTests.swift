import Foundation
import Testing

/// `getProgress`.
@Suite(.timeLimit(.minutes(3))) struct ProgressReadContractTests {
    @Test("getProgress answers 200 with the caller's progress through the course")
    func answersOwnProgress() async throws {
        try await ContractHarness.with { api in
            let given = try await ProgressWriteContractTests.enrolled(api)
            let progress = try await given.student.startProgress(in: given.course.id, lessonID: given.lesson.id)

            let ok = try await given.student.client.getProgress(path: .init(id: given.course.id)).ok

            let summary = try ok.body.json
            #expect(summary.courseId == given.course.id)
            #expect(summary.userId == given.student.user.id)
            #expect(summary.lessons == [progress])
            #expect(summary.totalLessons == 1)
            #expect(summary.completedLessons == 0)
            #expect(summary.percent == 0)
            #expect(ok.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("getProgress naming a learner answers 200 with that learner's progress for the owning teacher")
    func teachersReadALearner() async throws {
        try await ContractHarness.with { api in
            let given = try await ProgressWriteContractTests.enrolled(api)
            let teacher = try await api.signIn(.demoTeacher)
            _ = try await given.student.client.putProgress(
                path: .init(id: given.course.id), body: .json(.init(lessonId: given.lesson.id, completed: true))
            ).ok

            let summary = try await teacher.client.getProgress(
                path: .init(id: given.course.id), query: .init(userId: given.student.user.id)
            ).ok.body.json

            #expect(summary.userId == given.student.user.id)
            #expect(summary.completedLessons == 1)
            #expect(summary.percent == 100)
        }
    }

    @Test("getProgress naming another learner by a student answers 403 forbidden")
    func refusesStudentsReadingOthers() async throws {
        try await ContractHarness.with { api in
            let given = try await ProgressWriteContractTests.enrolled(api)
            let other = try await api.signIn(.demoOtherStudent)

            let output = try await other.client.getProgress(
                path: .init(id: given.course.id), query: .init(userId: given.student.user.id))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("getProgress naming a user who does not exist answers 404 not_found")
    func refusesAnUnknownLearner() async throws {
        try await ContractHarness.with { api in
            let given = try await ProgressWriteContractTests.enrolled(api)
            let teacher = try await api.signIn(.demoTeacher)

            let output = try await teacher.client.getProgress(
                path: .init(id: given.course.id), query: .init(userId: "no-such-user"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }

    @Test("getProgress of a course that does not exist answers 404 not_found")
    func refusesAnUnknownCourse() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.getProgress(path: .init(id: "no-such-course"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
