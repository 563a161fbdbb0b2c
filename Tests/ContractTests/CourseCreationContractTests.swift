import Foundation
import Testing

/// `createCourse`.
@Suite(.timeLimit(.minutes(3))) struct CourseCreationContractTests {
    @Test("createCourse by a teacher answers 201 with the course, its Location and ETag \"1\"")
    func createsACourse() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)

            let created = try await teacher.client.createCourse(
                body: .json(.init(
                    title: "Swift on the Server", description: "Hummingbird from scratch.", category: .programming,
                    thumbnailUrl: "https://cdn.example.com/swift.png", published: true))
            ).created

            let course = try created.body.json
            #expect(course.title == "Swift on the Server")
            #expect(course.thumbnailUrl == "https://cdn.example.com/swift.png")
            #expect(course.teacherId == teacher.user.id)
            #expect(course.lessonCount == 0)
            #expect(course.version == 1)
            #expect(created.headers.location == "/v1/courses/\(course.id)")
            #expect(created.headers.eTag == "\"1\"")
            #expect(created.headers.cacheControl == .private_comma_NoCache)
        }
    }

    @Test("createCourse with only the required fields answers the documented defaults")
    func appliesDefaults() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)

            let course = try await teacher.client.createCourse(
                body: .json(.init(title: "Defaults", category: .arts))
            ).created.body.json

            #expect(course.description == "")
            #expect(course.published == false)
            #expect(course.thumbnailUrl == nil)
        }
    }

    @Test("createCourse by an admin for a teacher answers 201 owned by that teacher")
    func adminsAssignTheTeacher() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let teacher = try await api.signIn(.demoOtherTeacher)

            let course = try await admin.client.createCourse(
                body: .json(.init(title: "Assigned", category: .history, teacherId: .init(value1: teacher.user.id)))
            ).created.body.json

            #expect(course.teacherId == teacher.user.id)
        }
    }

    @Test("createCourse by a student answers 403 forbidden")
    func refusesStudents() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.createCourse(body: .json(.init(title: "Mine", category: .arts)))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "forbidden")
        }
    }

    @Test("createCourse naming a teacher_id by a teacher answers 403 field_not_writable")
    func refusesTeacherIDFromTeachers() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let other = try await api.signIn(.demoOtherTeacher)

            let output = try await teacher.client.createCourse(
                body: .json(.init(title: "Theirs", category: .arts, teacherId: .init(value1: other.user.id))))

            expectProblem(try output.forbidden.body.applicationProblemJson, status: 403, code: "field_not_writable")
        }
    }

    @Test("createCourse with an empty title answers 400 validation_failed for title")
    func refusesAnEmptyTitle() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)

            let output = try await teacher.client.createCourse(body: .json(.init(title: "", category: .arts)))

            let problem = try output.badRequest.body.applicationProblemJson
            expectProblem(problem, status: 400, code: "validation_failed")
            #expect(problem.invalidFields == ["title"])
        }
    }
}
