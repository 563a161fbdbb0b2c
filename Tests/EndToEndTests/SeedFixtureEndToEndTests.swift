import EduGoSDK
import EduGoTesting
import Foundation
import Testing

/// `EduGoTestServer.seed(_:)`: a test's own fixture becomes a fresh tenant in one call.
@Suite(.timeLimit(.minutes(3))) struct SeedFixtureEndToEndTests {
    static let fixture = SeedTenant(
        users: [
            .init(email: "teacher@school.test", password: "Teacher-Pass-1", role: .teacher),
            .init(email: "ana@school.test", password: "Student-Pass-1", role: .student, firstName: "Ana", lastName: "López"),
        ],
        courses: [
            .init(
                key: "algebra", title: "Álgebra", category: "mathematics", teacher: "teacher@school.test",
                lessons: [.init(title: "Ecuaciones", durationMinutes: 12), .init(key: "f", title: "Funciones")]),
            .init(title: "Borrador", category: "science", published: false, teacher: "teacher@school.test"),
        ],
        enrollments: [.init(student: "ana@school.test", course: "algebra")],
        progress: [.init(student: "ana@school.test", course: "algebra", lesson: "f", completed: true, watchedSeconds: 90)])

    @Test("seed(_:) makes a tenant the SDK signs in to and reads the fixture back from")
    func seedMakesTheFixture() async throws {
        try await EduGoTestServer.with { server in
            // When a test seeds its fixture
            let tenant = try await server.seed(Self.fixture)

            // Then its student signs in there and sees the published course with her progress
            #expect(tenant.id != server.tenantID)
            #expect(tenant.accounts.map(\.email) == ["teacher@school.test", "ana@school.test"])
            let student = tenant.account(.student)
            let client = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: tenant.id))
            try await AuthService(client: client).login(email: student.email, password: student.password)
            let page: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 100))
            #expect(page.items.map(\.title) == ["Álgebra"])
            let course = try #require(page.items.first)
            let progress = try await client.execute(endpoint: .Courses.progress(course.id), as: CourseProgress.self)
            #expect(progress.totalLessons == 2)
            #expect(progress.completedLessons == 1)
            #expect(progress.lessons.map(\.watchedSeconds) == [90])
        }
    }

    @Test("an invalid fixture is refused with 422 naming the path of each problem")
    func invalidFixtureIsRefused() async throws {
        try await EduGoTestServer.with { server in
            var fixture = Self.fixture
            fixture.courses[0].lessons[1].title = ""
            fixture.enrollments[0].course = "geometry"

            do {
                _ = try await server.seed(fixture)
                Issue.record("an invalid fixture was seeded")
            } catch EduGoTestServerError.unexpectedStatus(let status, let body) {
                #expect(status == 422)
                #expect(body.contains("courses[0].lessons[1].title"))
                #expect(body.contains("enrollments[0].course"))
            }
        }
    }

    @Test("a fixture decoded from a seed file's JSON round-trips to the same value")
    func fixtureIsTheSeedFileFormat() throws {
        let data = try JSONEncoder().encode(SeedFile(tenants: [Self.fixture]))
        let decoded = try JSONDecoder().decode(SeedFile.self, from: data)
        #expect(decoded.tenants == [Self.fixture])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""watched_seconds":90"#))
        #expect(text.contains(#""duration_minutes":12"#))
    }
}
