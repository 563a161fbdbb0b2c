import Foundation
import Testing

/// `enroll` and `unenroll`.
@Suite(.timeLimit(.minutes(3))) struct EnrollmentContractTests {
    @Test("enroll answers 201 the first time and 200 with the same enrollment afterwards")
    func enrollsOnce() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse()

            let created = try await student.client.enroll(path: .init(id: course.id)).created
            let again = try await student.client.enroll(path: .init(id: course.id)).ok

            let enrollment = try created.body.json
            #expect(enrollment.courseId == course.id)
            #expect(enrollment.userId == student.user.id)
            #expect(try again.body.json == enrollment)
            #expect(created.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("enroll in an unpublished course its teacher can see answers 409 course_not_published")
    func refusesUnpublishedCourses() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let draft = try await teacher.createCourse(published: false)

            let output = try await teacher.client.enroll(path: .init(id: draft.id))

            expectProblem(try output.conflict.body.applicationProblemJson, status: 409, code: "course_not_published")
        }
    }

    @Test("enroll in a course that does not exist answers 404 not_found")
    func refusesAnUnknownCourse() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.enroll(path: .init(id: "no-such-course"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }

    @Test("unenroll answers 204 and the course leaves the caller's courses")
    func leavesACourse() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse()
            try await student.enroll(in: course.id)

            _ = try await student.client.unenroll(path: .init(id: course.id)).noContent

            let mine = try await student.client.listMyCourses(query: .init(limit: 100)).ok.body.json
            #expect(!mine.items.contains { $0.course.id == course.id })
        }
    }

    @Test("unenroll from a course that does not exist answers 404 not_found")
    func refusesAnUnknownCourseToLeave() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.unenroll(path: .init(id: "no-such-course"))

            expectProblem(try output.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
