import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `POST /__dev/tenants` with a fixture: one tenant of a seed file as the body.
@Suite(.timeLimit(.minutes(3))) struct DevTenantFixtureTests {
    static let fixture = """
        {"name": "Fixture school",
         "users": [
           {"email": "teacher@school.test", "password": "Teacher-Pass-1", "role": "teacher", "first_name": "María"},
           {"email": "ana@school.test", "password": "Student-Pass-1", "role": "student"}],
         "courses": [
           {"key": "algebra", "title": "Álgebra", "category": "mathematics", "teacher": "teacher@school.test",
            "lessons": [{"title": "Ecuaciones", "duration_minutes": 12}, {"title": "Funciones"}]},
           {"title": "Borrador", "category": "science", "teacher": "teacher@school.test", "published": false}],
         "enrollments": [{"student": "ana@school.test", "course": "algebra"}],
         "progress": [{"student": "ana@school.test", "course": "algebra", "lesson": "Ecuaciones", "completed": true,
                       "watched_seconds": 720}]}
        """

    struct Page: Decodable {
        struct Item: Decodable {
            var id: String
            var title: String
        }
        var items: [Item]
    }

    struct TenantCount: Decodable { var total: Int }

    struct Progress: Decodable {
        struct Lesson: Decodable {
            var completed: Bool
            var watchedSeconds: Int
        }
        var lessons: [Lesson]
        var completedLessons: Int
        var totalLessons: Int
    }

    @Test("POST /__dev/tenants with a fixture makes exactly that tenant: its accounts, courses, enrollment and progress")
    func fixtureMakesTheTenant() async throws {
        try await withServer { client in
            // When a suite posts its fixture
            let response = try await client.send(.post, "/__dev/tenants", json: Self.fixture)

            // Then the answer lists the fixture's accounts with their passwords
            #expect(response.status == .created, "body: \(response.text)")
            let created = try response.decode(DevEndpointsTests.CreatedTenant.self)
            #expect(created.accounts.map(\.email) == ["teacher@school.test", "ana@school.test"])
            #expect(created.accounts.map(\.role) == ["teacher", "student"])

            // And the student signs in there and sees the published course, enrolled, with her progress
            let ana = try await client.signIn(
                Credentials(email: "ana@school.test", password: "Student-Pass-1", tenant: created.tenantId))
            let courses = try await client.send(.get, "/v1/courses", bearer: ana.accessToken).decode(Page.self)
            #expect(courses.items.map(\.title) == ["Álgebra"])
            let course = try #require(courses.items.first)
            let mine = try await client.send(.get, "/v1/users/me/courses", bearer: ana.accessToken)
            #expect(mine.text.contains(course.id), "body: \(mine.text)")
            let progress = try await client.send(.get, "/v1/courses/\(course.id)/progress", bearer: ana.accessToken)
            let report = try progress.decode(Progress.self)
            #expect(report.completedLessons == 1)
            #expect(report.totalLessons == 2)
            #expect(report.lessons.filter(\.completed).map(\.watchedSeconds) == [720])

            // And the teacher sees the draft too
            let teacher = try await client.signIn(
                Credentials(email: "teacher@school.test", password: "Teacher-Pass-1", tenant: created.tenantId))
            let all = try await client.send(.get, "/v1/courses", bearer: teacher.accessToken).decode(Page.self)
            #expect(Set(all.items.map(\.title)) == ["Álgebra", "Borrador"])
            #expect(teacher.user.firstName == "María")
        }
    }

    @Test("a fixture with bad entries answers 422 validation_failed naming each path, and creates no tenant")
    func badFixtureCreatesNothing() async throws {
        try await withServer { client in
            let before = try await client.send(.get, "/__dev/tenants").decode(TenantCount.self)
            let broken = Self.fixture
                .replacingOccurrences(of: #"{"title": "Funciones"}"#, with: #"{"duration_minutes": 3}"#)
                .replacingOccurrences(of: #""course": "algebra"}]"#, with: #""course": "geometry"}]"#)

            let response = try await client.send(.post, "/__dev/tenants", json: broken)

            let problem = try expectProblem(response, .unprocessableContent, "validation_failed")
            let fields = problem.errors?.map(\.field) ?? []
            #expect(fields.contains("courses[0].lessons[1].title"))
            #expect(fields.contains("enrollments[0].course"))
            #expect(problem.detail.contains("courses[0].lessons[1].title: required"))
            let after = try await client.send(.get, "/__dev/tenants").decode(TenantCount.self)
            #expect(after.total == before.total)
        }
    }

    @Test("a fixture may not choose the tenant's id")
    func fixtureIDIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/__dev/tenants", json: #"{"id": "demo"}"#)

            let problem = try expectProblem(response, .unprocessableContent, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["id"])
        }
    }

    @Test("POST /__dev/tenants with Content-Type: application/json and an empty body seeds the built-in fixture")
    func emptyJSONBodyIsTheBuiltInFixture() async throws {
        try await withServer { client in
            // When a generated client, which always sends its JSON media type, calls it without a body
            let response = try await client.send(
                .post, "/__dev/tenants", headers: [.contentType: "application/json", .contentLength: "0"])

            // Then the tenant is the built-in fixture: one account per role
            #expect(response.status == .created, "body: \(response.text)")
            let tenant = try response.decode(DevTenantBody.self)
            #expect(tenant.accounts.map(\.role).sorted() == ["admin", "student", "teacher"])
        }
    }

    @Test("POST /__dev/tenants with a JSON media type and a body that is not JSON still answers 400 malformed_json")
    func nonEmptyMalformedBodyIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/__dev/tenants", json: " ")

            try expectProblem(response, .badRequest, "malformed_json")
        }
    }
}
