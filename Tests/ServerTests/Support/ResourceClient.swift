import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

// Helpers for the resource suites (users, courses, lessons, enrollment, progress). They build on
// TestServer.swift and decode every body with types of their own, independent of the server's.

// MARK: - Server

/// `withServer` on a fresh test clock the test can move.
func withClockedServer<Value: Sendable>(
    _ test: @Sendable (TestClock, any TestClientProtocol) async throws -> Value
) async throws -> Value {
    let clock = TestClock()
    return try await withServer(.testing(clock: clock)) { client in try await test(clock, client) }
}

// MARK: - Seeded accounts beyond the ones TestServer.swift names

enum SeededAccount {
    static let demoTeacher2 = Credentials(email: "teacher2@demo.edugo.dev", password: "Demo-Teacher-2026", tenant: "demo")
    static func demoStudent(_ number: Int) -> Credentials {
        Credentials(email: "student\(number)@demo.edugo.dev", password: "Demo-Student-2026", tenant: "demo")
    }
    static let acmeTeacher = Credentials(email: "teacher1@acme.example", password: "Demo-Teacher-2026", tenant: "acme")
    static let acmeStudent = Credentials(email: "student1@acme.example", password: "Demo-Student-2026", tenant: "acme")
}

/// Titles of the seeded catalogue, as the tests look courses up by title.
enum SeededCourse {
    /// teacher1's, published; no student has progress in it yet for student1.
    static let matematicas = "Matemáticas básicas"
    /// teacher2's, published; students are enrolled.
    static let algebra = "Introduction to Algebra"
    /// teacher1's, published; students are enrolled.
    static let swift = "Programación con Swift"
    /// teacher2's, published; nobody is enrolled.
    static let english = "English for Travellers"
    /// teacher1's, published; nobody is enrolled.
    static let historia = "Historia de América Latina"
    /// teacher1's draft: invisible to students and to teacher2.
    static let draft = "Emprendimiento digital"
    /// acme's.
    static let acmeOnboarding = "Onboarding at Acme"
}

/// A signed-in caller: the bearer token and who it is.
struct Caller: Sendable {
    var token: String
    var user: UserBody
    var id: String { user.id }
}

// MARK: - Response bodies

struct PageBody<Item: Decodable>: Decodable {
    var items: [Item]
    var page: Int
    var limit: Int
    var total: Int
}

struct CourseBody: Decodable, Equatable {
    var id: String
    var title: String
    var description: String
    var category: String
    var thumbnailUrl: String?
    var published: Bool
    var teacherId: String
    var lessonCount: Int
    var version: Int
    var createdAt: String
    var updatedAt: String
}

struct LessonBody: Decodable, Equatable {
    var id: String
    var courseId: String
    var title: String
    var content: String
    var order: Int
    var durationMinutes: Int
    var videoUrl: String?
    var version: Int
    var createdAt: String
    var updatedAt: String
}

struct LessonListBody: Decodable {
    var items: [LessonBody]
}

struct EnrollmentBody: Decodable, Equatable {
    var courseId: String
    var userId: String
    var enrolledAt: String
}

struct EnrolledCourseBody: Decodable {
    var course: CourseBody
    var enrolledAt: String
    var completedLessons: Int
    var totalLessons: Int
    var percent: Double
}

struct LessonProgressBody: Decodable, Equatable {
    var lessonId: String
    var completed: Bool
    var completedAt: String?
    var watchedSeconds: Int
    var version: Int
    var updatedAt: String
}

struct CourseProgressBody: Decodable {
    var courseId: String
    var userId: String
    var lessons: [LessonProgressBody]
    var completedLessons: Int
    var totalLessons: Int
    var percent: Double
}

/// The problem body of a 409/412 version conflict, with the server's current representation.
struct ConflictBody<Current: Decodable>: Decodable {
    var code: String
    var status: Int
    var currentVersion: Int
    var current: Current
}

// MARK: - JSON request bodies with mixed member types

enum ResourceJSON {
    /// A JSON object with keys sorted; values may be strings, numbers, booleans or `NSNull()`.
    static func body(_ members: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Member names whose presence in a response would leak storage internals.
    static let internalMembers = ["password_hash", "search_text", "email_key", "passwordHash", "searchText", "emailKey"]
}

extension HTTPFields {
    static func ifMatch(_ version: Int) -> HTTPFields { [.ifMatch: "\"\(version)\""] }
    static func ifNoneMatch(_ tag: String) -> HTTPFields { [.ifNoneMatch: tag] }
    static func idempotencyKey(_ key: String) -> HTTPFields { [.idempotencyKey: key] }
}

// MARK: - Requests

extension TestClientProtocol {
    /// Signs in and returns the token with the user; throws unless the login succeeded.
    func caller(_ account: Credentials) async throws -> Caller {
        let pair = try await signIn(account)
        return Caller(token: pair.accessToken, user: pair.user)
    }

    /// A GET with a bearer token.
    func get(_ uri: String, as caller: Caller, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await send(.get, uri, bearer: caller.token, headers: headers)
    }

    /// A request with a JSON body built from `members`.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, as caller: Caller, body members: [String: Any]?,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await send(
            method, uri, bearer: caller.token, json: members.map(ResourceJSON.body), headers: headers)
    }

    func delete(_ uri: String, as caller: Caller) async throws -> TestResponse {
        try await send(.delete, uri, bearer: caller.token)
    }

    /// Decodes a 2xx answer; throws with the body otherwise (for setup steps).
    func expectOK<T: Decodable>(
        _ type: T.Type, _ response: TestResponse, _ what: String
    ) throws -> T {
        guard (200..<300).contains(response.status.code) else {
            throw HelperFailure(description: "\(what) answered \(response.status): \(response.text)")
        }
        return try response.decode(T.self)
    }

    /// Every course `caller` can see (the catalogue is small: one page of 100).
    func allCourses(as caller: Caller) async throws -> [CourseBody] {
        try expectOK(PageBody<CourseBody>.self, try await get("/v1/courses?limit=100", as: caller), "list courses").items
    }

    /// The course titled `title` as `caller` sees it; throws when it is not in the caller's list.
    func course(titled title: String, as caller: Caller) async throws -> CourseBody {
        guard let course = try await allCourses(as: caller).first(where: { $0.title == title }) else {
            throw HelperFailure(description: "course \(title) is not visible to \(caller.user.email)")
        }
        return course
    }

    func lessons(of courseID: String, as caller: Caller) async throws -> [LessonBody] {
        try expectOK(LessonListBody.self, try await get("/v1/courses/\(courseID)/lessons", as: caller), "list lessons")
            .items
    }

    /// Every user `caller` may list (admins and teachers).
    func allUsers(as caller: Caller) async throws -> [UserBody] {
        try expectOK(PageBody<UserBody>.self, try await get("/v1/users?limit=100", as: caller), "list users").items
    }

    func user(email: String, as caller: Caller) async throws -> UserBody {
        guard let user = try await allUsers(as: caller).first(where: { $0.email == email }) else {
            throw HelperFailure(description: "user \(email) is not listed for \(caller.user.email)")
        }
        return user
    }

    /// Creates a course; throws unless 201.
    func createCourse(
        as caller: Caller, title: String = "Geometría analítica", category: String = "mathematics",
        published: Bool = true, extra: [String: Any] = [:]
    ) async throws -> CourseBody {
        var members: [String: Any] = ["title": title, "category": category, "published": published]
        members.merge(extra) { _, new in new }
        let response = try await send(.post, "/v1/courses", as: caller, body: members)
        guard response.status == .created else {
            throw HelperFailure(description: "create course answered \(response.status): \(response.text)")
        }
        return try response.decode(CourseBody.self)
    }

    /// Creates a lesson; throws unless 201.
    func createLesson(
        in courseID: String, as caller: Caller, title: String = "Rectas y pendientes", extra: [String: Any] = [:]
    ) async throws -> LessonBody {
        var members: [String: Any] = ["title": title]
        members.merge(extra) { _, new in new }
        let response = try await send(.post, "/v1/courses/\(courseID)/lessons", as: caller, body: members)
        guard response.status == .created else {
            throw HelperFailure(description: "create lesson answered \(response.status): \(response.text)")
        }
        return try response.decode(LessonBody.self)
    }

    func enroll(in courseID: String, as caller: Caller) async throws -> TestResponse {
        try await send(.post, "/v1/courses/\(courseID)/enrollment", bearer: caller.token)
    }

    func putProgress(
        in courseID: String, as caller: Caller, _ members: [String: Any], headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await send(.put, "/v1/courses/\(courseID)/progress", as: caller, body: members, headers: headers)
    }
}

// MARK: - Expectations

/// Expects that no member named like a storage column appears anywhere in the body.
func expectNoInternalMembers(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
    for name in ResourceJSON.internalMembers {
        #expect(!response.text.contains("\"\(name)\""), "body leaks \(name): \(response.text)", sourceLocation: sourceLocation)
    }
}

/// Expects a version conflict (409 for a body version, 412 for If-Match) and returns its body.
@discardableResult
func expectConflict<Current: Decodable>(
    _ response: TestResponse, _ status: HTTPResponse.Status, current: Current.Type,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> ConflictBody<Current> {
    try expectProblem(response, status, "version_conflict", sourceLocation: sourceLocation)
    return try response.decode(ConflictBody<Current>.self)
}
