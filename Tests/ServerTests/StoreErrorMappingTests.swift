import Foundation
import GRDB
import Hummingbird
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// A store refusal is answered with exactly the problem+json the API documents (status, content
/// type, every member and its value): the store throws ``StoreError`` and `APIError(_:)` is the
/// one place that renders it.
@Suite(.timeLimit(.minutes(1))) struct StoreErrorMappingTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A tenant in memory holding one teacher and one published course of theirs at version 2.
    static func tenant() async throws -> (store: TenantStore, teacher: Identity) {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("mapping")), at: nil, now: { now })
        let teacher = UserRecord(
            id: "t1", email: "t@example.com", emailKey: "t@example.com", passwordHash: "", firstName: "T", lastName: "One",
            role: .teacher, emailVerified: true, version: 1, createdAt: now, updatedAt: now)
        let course = CourseRecord(
            id: "c1", title: "Swift", description: "Basics", category: "programming", thumbnailUrl: nil, published: true,
            teacherId: "t1", version: 2, createdAt: now, updatedAt: now)
        try await database.writer.write { db in
            try teacher.insert(db)
            try course.insert(db)
        }
        let store = TenantStore(database)
        return (store, Identity(store: store, user: teacher, sessionID: "s"))
    }

    /// What the server answers for `error` at `path`: status, content type and body text.
    static func answer(_ error: any Error, path: String) async throws -> (HTTPResponse.Status, String?, String) {
        let storeError = try #require(error as? StoreError, "\(error)")
        let response = ProblemMiddleware.problemResponse(APIError(storeError), path: path, requestID: "r1")
        let body = try await MediaOpenRaceTests.collect(response.body)
        return (response.status, response.headers[.contentType], String(decoding: body, as: UTF8.self))
    }

    /// `text` read as JSON: a problem's members compared whatever their order (the encoder keeps none).
    static func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test("a course the store cannot find answers today's 404 not_found problem")
    func notFound() async throws {
        // Given a tenant without course c9
        let (store, teacher) = try await Self.tenant()

        // When the store is asked for it
        let error = await #expect(throws: StoreError.self) { try await store.course("c9", visibleTo: teacher) }

        // Then the answer is the documented problem, member for member
        let (status, type, body) = try await Self.answer(try #require(error), path: "/v1/courses/c9")
        #expect(status == .notFound)
        #expect(type == "application/problem+json")
        #expect(
            try Self.json(body) == Self.json(#"{"type":"urn:edugo:problem:not_found","title":"Not Found","status":404,"detail":"The requested course does not exist.","instance":"/v1/courses/c9","code":"not_found","request_id":"r1"}"#))
    }

    @Test("a stale body version answers today's 409 version_conflict with the current course")
    func staleBodyVersion() async throws {
        // Given course c1 at version 2
        let (store, teacher) = try await Self.tenant()

        // When an update based on version 1 reaches the store
        let error = await #expect(throws: StoreError.self) {
            try await store.updateCourse(
                "c1", by: teacher, changes: CourseChanges(title: "New"),
                base: VersionPrecondition(version: 1, source: .body), now: Self.now)
        }

        // Then the answer carries the current version and representation, member for member
        let (status, type, body) = try await Self.answer(try #require(error), path: "/v1/courses/c1")
        #expect(status == .conflict)
        #expect(type == "application/problem+json")
        #expect(
            try Self.json(body)
                == Self.json(
                    #"{"type":"urn:edugo:problem:version_conflict","title":"Conflict","status":409,"detail":"The update was based on version 1, but the current version is 2.","instance":"/v1/courses/c1","code":"version_conflict","request_id":"r1","current_version":2,"current":{"category":"programming","created_at":"2023-11-14T22:13:20Z","description":"Basics","id":"c1","lesson_count":0,"published":true,"teacher_id":"t1","thumbnail_url":null,"title":"Swift","updated_at":"2023-11-14T22:13:20Z","version":2}}"#))
    }

    @Test("a stale If-Match answers today's 412 version_conflict with the current course")
    func staleIfMatch() async throws {
        let (store, teacher) = try await Self.tenant()

        let error = await #expect(throws: StoreError.self) {
            try await store.updateCourse(
                "c1", by: teacher, changes: CourseChanges(title: "New"),
                base: VersionPrecondition(version: 1, source: .ifMatch, alternatives: [1]), now: Self.now)
        }

        let (status, _, body) = try await Self.answer(try #require(error), path: "/v1/courses/c1")
        #expect(status == .preconditionFailed)
        #expect(
            try Self.json(body)
                == Self.json(
                    #"{"type":"urn:edugo:problem:version_conflict","title":"Precondition Failed","status":412,"detail":"If-Match does not match the current version 2.","instance":"/v1/courses/c1","code":"version_conflict","request_id":"r1","current_version":2,"current":{"category":"programming","created_at":"2023-11-14T22:13:20Z","description":"Basics","id":"c1","lesson_count":0,"published":true,"teacher_id":"t1","thumbnail_url":null,"title":"Swift","updated_at":"2023-11-14T22:13:20Z","version":2}}"#))
    }

    @Test("another teacher's course answers today's 403 forbidden problem")
    func forbidden() async throws {
        let (store, _) = try await Self.tenant()
        let other = UserRecord(
            id: "t2", email: "u@example.com", emailKey: "u@example.com", passwordHash: "", firstName: "U", lastName: "Two",
            role: .teacher, emailVerified: true, version: 1, createdAt: Self.now, updatedAt: Self.now)

        let error = await #expect(throws: StoreError.self) {
            try await store.deleteCourse("c1", by: Identity(store: store, user: other, sessionID: "s"))
        }

        let (status, _, body) = try await Self.answer(try #require(error), path: "/v1/courses/c1")
        #expect(status == .forbidden)
        #expect(
            try Self.json(body)
                == Self.json(
                    #"{"type":"urn:edugo:problem:forbidden","title":"Forbidden","status":403,"detail":"Only the course's teacher or an admin may change it.","instance":"/v1/courses/c1","code":"forbidden","request_id":"r1"}"#))
    }
}
