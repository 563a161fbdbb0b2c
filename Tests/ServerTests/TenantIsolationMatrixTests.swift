import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// Every tenant's data is invisible to every other tenant: another tenant's object answers 404,
/// never 403 or 200, and lists and searches never carry it.
@Suite(.timeLimit(.minutes(3))) struct TenantIsolationMatrixTests {
    /// Ids of one tenant's objects, as its own admin sees them.
    struct TenantObjects: Sendable {
        var courseID: String
        var lessonID: String
        var studentID: String
        var courseVersion: Int
        var lessonCount: Int

        static func load(
            _ client: any TestClientProtocol, admin: Caller, course title: String, student email: String
        ) async throws -> TenantObjects {
            let course = try await client.course(titled: title, as: admin)
            guard let lesson = try await client.lessons(of: course.id, as: admin).first else {
                throw HelperFailure(description: "\(title) has no lessons")
            }
            let student = try await client.user(email: email, as: admin)
            return TenantObjects(
                courseID: course.id, lessonID: lesson.id, studentID: student.id, courseVersion: course.version,
                lessonCount: course.lessonCount)
        }
    }

    /// One operation that names an object by id.
    enum Operation: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case getUser = "GET /v1/users/{id}"
        case patchUser = "PATCH /v1/users/{id}"
        case patchUserIfMatch = "PATCH /v1/users/{id} (If-Match)"
        case deleteUser = "DELETE /v1/users/{id}"
        case getCourse = "GET /v1/courses/{id}"
        case patchCourse = "PATCH /v1/courses/{id}"
        case patchCourseIfMatch = "PATCH /v1/courses/{id} (If-Match)"
        case deleteCourse = "DELETE /v1/courses/{id}"
        case enroll = "POST /v1/courses/{id}/enrollment"
        case unenroll = "DELETE /v1/courses/{id}/enrollment"
        case listLessons = "GET /v1/courses/{id}/lessons"
        case createLesson = "POST /v1/courses/{id}/lessons"
        case getLesson = "GET /v1/courses/{id}/lessons/{lessonId}"
        case patchLesson = "PATCH /v1/courses/{id}/lessons/{lessonId}"
        case deleteLesson = "DELETE /v1/courses/{id}/lessons/{lessonId}"
        case getProgress = "GET /v1/courses/{id}/progress"
        case putProgress = "PUT /v1/courses/{id}/progress"
        case foreignLessonInOwnCourse = "GET /v1/courses/{own id}/lessons/{foreign lessonId}"
        case foreignLearnerInOwnCourse = "GET /v1/courses/{own id}/progress?user_id={foreign id}"
        case foreignLessonProgressInOwnCourse = "PUT /v1/courses/{own id}/progress {foreign lesson_id}"

        var testDescription: String { rawValue }

        /// Sends the operation as `caller`, naming `foreign`'s objects (and `own`'s where the
        /// operation needs an object of the caller's tenant to reach the foreign one).
        func send(
            _ client: any TestClientProtocol, as caller: Caller, foreign: TenantObjects, own: TenantObjects
        ) async throws -> TestResponse {
            let user = "/v1/users/\(foreign.studentID)"
            let course = "/v1/courses/\(foreign.courseID)"
            let lesson = "\(course)/lessons/\(foreign.lessonID)"
            switch self {
            case .getUser: return try await client.get(user, as: caller)
            case .patchUser:
                return try await client.send(.patch, user, as: caller, body: ["first_name": "Mallory", "version": 1])
            case .patchUserIfMatch:
                return try await client.send(.patch, user, as: caller, body: ["first_name": "Mallory"], headers: .ifMatch(1))
            case .deleteUser: return try await client.delete(user, as: caller)
            case .getCourse: return try await client.get(course, as: caller)
            case .patchCourse:
                return try await client.send(
                    .patch, course, as: caller, body: ["title": "Pwned", "version": foreign.courseVersion])
            case .patchCourseIfMatch:
                return try await client.send(
                    .patch, course, as: caller, body: ["title": "Pwned"], headers: .ifMatch(foreign.courseVersion))
            case .deleteCourse: return try await client.delete(course, as: caller)
            case .enroll: return try await client.send(.post, "\(course)/enrollment", bearer: caller.token)
            case .unenroll: return try await client.delete("\(course)/enrollment", as: caller)
            case .listLessons: return try await client.get("\(course)/lessons", as: caller)
            case .createLesson:
                return try await client.send(.post, "\(course)/lessons", as: caller, body: ["title": "Injected"])
            case .getLesson: return try await client.get(lesson, as: caller)
            case .patchLesson:
                return try await client.send(.patch, lesson, as: caller, body: ["title": "Pwned", "version": 1])
            case .deleteLesson: return try await client.delete(lesson, as: caller)
            case .getProgress: return try await client.get("\(course)/progress", as: caller)
            case .putProgress:
                return try await client.send(
                    .put, "\(course)/progress", as: caller, body: ["lesson_id": foreign.lessonID, "completed": true])
            case .foreignLessonInOwnCourse:
                return try await client.get("/v1/courses/\(own.courseID)/lessons/\(foreign.lessonID)", as: caller)
            case .foreignLearnerInOwnCourse:
                return try await client.get(
                    "/v1/courses/\(own.courseID)/progress?user_id=\(foreign.studentID)", as: caller)
            case .foreignLessonProgressInOwnCourse:
                return try await client.send(
                    .put, "/v1/courses/\(own.courseID)/progress", as: caller,
                    body: ["lesson_id": foreign.lessonID, "completed": true])
            }
        }
    }

    /// Which tenant's admin probes which tenant's objects.
    enum Direction: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case acmeAgainstDemo = "acme admin → demo"
        case demoAgainstAcme = "demo admin → acme"

        var testDescription: String { rawValue }
    }

    @Test(
        "an admin of one tenant naming another tenant's object gets 404 and changes nothing",
        arguments: Direction.allCases, Operation.allCases)
    func crossTenantObjectIsNotFound(direction: Direction, operation: Operation) async throws {
        try await withServer { client in
            // Given both tenants' admins and one course, lesson and student of each
            let demoAdmin = try await client.caller(.demoAdmin)
            let acmeAdmin = try await client.caller(.acmeAdmin)
            let demo = try await TenantObjects.load(
                client, admin: demoAdmin, course: SeededCourse.matematicas, student: Credentials.demoStudent.email)
            let acme = try await TenantObjects.load(
                client, admin: acmeAdmin, course: SeededCourse.acmeOnboarding, student: SeededAccount.acmeStudent.email)
            let (prober, victimAdmin, own, foreign) =
                direction == .acmeAgainstDemo ? (acmeAdmin, demoAdmin, acme, demo) : (demoAdmin, acmeAdmin, demo, acme)

            // When the prober names the other tenant's object
            let response = try await operation.send(client, as: prober, foreign: foreign, own: own)

            // Then it does not exist for them
            try expectProblem(response, .notFound, "not_found")
            // And the victim's objects are untouched
            let course = try await client.get("/v1/courses/\(foreign.courseID)", as: victimAdmin).decode(CourseBody.self)
            #expect(course.version == foreign.courseVersion)
            #expect(course.lessonCount == foreign.lessonCount)
            let student = try await client.get("/v1/users/\(foreign.studentID)", as: victimAdmin).decode(UserBody.self)
            #expect(student.version == 1)
            let lesson = try await client.get(
                "/v1/courses/\(foreign.courseID)/lessons/\(foreign.lessonID)", as: victimAdmin
            ).decode(LessonBody.self)
            #expect(lesson.version == 1)
        }
    }

    @Test("an acme admin naming a demo teacher as teacher_id is refused like an unknown user")
    func crossTenantTeacherId() async throws {
        try await withServer { client in
            let demoAdmin = try await client.caller(.demoAdmin)
            let acmeAdmin = try await client.caller(.acmeAdmin)
            let demoTeacher = try await client.user(email: Credentials.demoTeacher.email, as: demoAdmin)

            let response = try await client.send(
                .post, "/v1/courses", as: acmeAdmin,
                body: ["title": "Hijack", "category": "arts", "teacher_id": demoTeacher.id])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["teacher_id"])
        }
    }

    @Test("an acme token naming demo in X-Tenant-ID answers 403 tenant_mismatch on a resource route")
    func tenantHeaderMismatch() async throws {
        try await withServer { client in
            let acmeAdmin = try await client.caller(.acmeAdmin)

            let response = try await client.send(.get, "/v1/courses", tenant: "demo", bearer: acmeAdmin.token)

            try expectProblem(response, .forbidden, "tenant_mismatch")
        }
    }

    // MARK: - Lists and searches

    @Test(
        "acme's lists and searches never carry a demo object",
        arguments: [
            "/v1/courses?limit=100", "/v1/courses/search?q=a&limit=100", "/v1/courses/search?q=matematicas",
            "/v1/courses?category=mathematics", "/v1/users?limit=100", "/v1/users/search?q=demo",
            "/v1/users/search?q=gonzalez", "/v1/users/me/courses",
        ])
    func acmeListsHoldNoDemoObjects(path: String) async throws {
        try await withServer { client in
            let demoAdmin = try await client.caller(.demoAdmin)
            let acmeAdmin = try await client.caller(.acmeAdmin)
            let demoIDs = Set(try await client.allCourses(as: demoAdmin).map(\.id))
                .union(try await client.allUsers(as: demoAdmin).map(\.id))

            let response = try await client.get(path, as: acmeAdmin)

            #expect(response.status == .ok)
            for id in demoIDs {
                #expect(!response.text.contains(id), "\(path) leaks demo object \(id)")
            }
            #expect(!response.text.contains("demo.edugo.dev"))
        }
    }

    @Test("acme's course list holds exactly acme's two courses")
    func acmeCourseList() async throws {
        try await withServer { client in
            let acmeAdmin = try await client.caller(.acmeAdmin)

            let page = try await client.get("/v1/courses", as: acmeAdmin).decode(PageBody<CourseBody>.self)

            #expect(page.total == 2)
            #expect(Set(page.items.map(\.title)) == [SeededCourse.acmeOnboarding, "Seguridad de la información"])
        }
    }

    @Test("acme's user list holds exactly acme's four users")
    func acmeUserList() async throws {
        try await withServer { client in
            let acmeAdmin = try await client.caller(.acmeAdmin)

            let page = try await client.get("/v1/users", as: acmeAdmin).decode(PageBody<UserBody>.self)

            #expect(page.total == 4)
            #expect(page.items.allSatisfy { $0.email.hasSuffix("@acme.example") })
        }
    }

    @Test("an acme student's enrolled courses are acme courses only")
    func acmeStudentCourses() async throws {
        try await withServer { client in
            let student = try await client.caller(SeededAccount.acmeStudent)

            let page = try await client.get("/v1/users/me/courses", as: student).decode(PageBody<EnrolledCourseBody>.self)

            #expect(page.items.map(\.course.title) == [SeededCourse.acmeOnboarding])
        }
    }

    @Test("the same email may exist in both tenants without clashing")
    func emailsAreScopedPerTenant() async throws {
        try await withServer { client in
            let acmeAdmin = try await client.caller(.acmeAdmin)

            let response = try await client.send(
                .post, "/v1/users", as: acmeAdmin,
                body: [
                    "email": Credentials.demoStudent.email, "password": "Password-123", "first_name": "Ana",
                    "last_name": "Acme", "role": "student",
                ])

            #expect(response.status == .created)
        }
    }

    // MARK: - Within a tenant

    @Test("a student naming another student's profile gets 404")
    func studentAgainstStudentProfile() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let classmate = try await client.caller(SeededAccount.demoStudent(4))

            let response = try await client.get("/v1/users/\(classmate.id)", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("a student naming another student's progress gets 403 forbidden")
    func studentAgainstStudentProgress() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let classmate = try await client.caller(SeededAccount.demoStudent(4))
            let course = try await client.course(titled: SeededCourse.algebra, as: student)

            let response = try await client.get("/v1/courses/\(course.id)/progress?user_id=\(classmate.id)", as: student)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }
}
