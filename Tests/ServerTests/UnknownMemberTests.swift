import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// An unknown member is one more `validation_failed` entry, never the only one: the answer names
/// every invalid member of the body in one pass (README, "one pass that names every invalid
/// member"), whichever reader the route uses.
@Suite(.timeLimit(.minutes(3))) struct UnknownMemberTests {
    @Test("a new course with an unknown member, no title and an unknown category names all three")
    func courseBody() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .post, "/v1/courses", as: teacher, body: ["category": "cooking", "level": "advanced"])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["title", "category", "level"])
            #expect(problem.errors?.map(\.code) == ["required", "invalid_value", "unknown_field"])
        }
    }

    @Test("a course change with an unknown member and a blank title names both, before any version check")
    func coursePatch() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try #require(try await client.allCourses(as: teacher).first { $0.teacherId == teacher.user.id })

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher,
                body: ["title": "   ", "colour": "red", "version": course.version])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["title", "colour"])
        }
    }

    @Test("a registration with an unknown member and a malformed address names both")
    func registrationBody() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: TestJSON.body([
                    "email": "not-an-address", "password": "Correct-Horse-9", "first_name": "Ana",
                    "last_name": "García", "role": "admin",
                ]))

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["email", "role"])
        }
    }

    @Test("a registration with an unknown member and a member missing names both")
    func registrationMissingMember() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: TestJSON.body(["email": "ana@example.com", "password": "Correct-Horse-9", "first_name": "Ana", "role": "admin"]))

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["last_name", "role"])
        }
    }

    @Test("a fault rule with an unknown member and an unknown action names both")
    func devBody() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/__dev/faults", tenant: "demo",
                json: ResourceJSON.body(["path": "/v1/courses", "action": "explode", "colour": "red"]))

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["action", "colour"])
        }
    }
}
