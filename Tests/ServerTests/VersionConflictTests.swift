import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// Versions, ETags and conflicts: 409 for a stale body `version`, 412 for a stale `If-Match`,
/// 428 with no base version, 304 for a matching `If-None-Match`.
@Suite(.timeLimit(.minutes(3))) struct VersionConflictTests {
    // MARK: - Two writers on the same base version

    @Test("a stale body version answers 409 with the first writer's course in current")
    func courseLostUpdate() async throws {
        try await withServer { client in
            // Given the owner and an admin both holding version 1 of a course
            let teacher = try await client.caller(.demoTeacher)
            let admin = try await client.caller(.demoAdmin)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let first = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "Matemáticas I", "version": 1])
            #expect(first.status == .ok)

            // When the admin writes on the same base
            let second = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: admin, body: ["description": "Otra", "version": 1])

            // Then they get the first writer's result to merge with
            let conflict = try expectConflict(second, .conflict, current: CourseBody.self)
            #expect(conflict.currentVersion == 2)
            #expect(conflict.current.version == 2)
            #expect(conflict.current.title == "Matemáticas I")
            #expect(conflict.current.description == course.description)
            #expect(conflict.current == (try first.decode(CourseBody.self)))
            expectNoInternalMembers(second)
        }
    }

    @Test("a write 0.9996 s past a second answers with the times every later read and conflict answers with")
    func writeTimesAreTheStoredTimes() async throws {
        // The store keeps milliseconds (rounding to the nearest) and the API whole seconds
        // (rounding down): unless the clock is read at the store's precision, the write answers
        // with one second and every later read with the next.
        try await withServer(.testing(clock: TestClock(TestClock.start.addingTimeInterval(0.9996)))) { client in
            let teacher = try await client.caller(.demoTeacher)
            let path = "/v1/courses/\(try await client.course(titled: SeededCourse.matematicas, as: teacher).id)"
            let created = try client.expectOK(
                CourseBody.self,
                try await client.send(.post, "/v1/courses", as: teacher, body: [
                    "title": "Al filo del segundo", "description": "Creado a 0.9996 s.", "category": "mathematics",
                ]),
                "create a course")
            let updated = try client.expectOK(
                CourseBody.self,
                try await client.send(.patch, path, as: teacher, body: ["title": "Matemáticas I", "version": 1]),
                "update a course")

            #expect(try await client.get("/v1/courses/\(created.id)", as: teacher).decode(CourseBody.self) == created)
            #expect(try await client.get(path, as: teacher).decode(CourseBody.self) == updated)
            let stale = try await client.send(.patch, path, as: teacher, body: ["title": "Tarde", "version": 1])
            #expect(try expectConflict(stale, .conflict, current: CourseBody.self).current == updated)
        }
    }

    @Test("two concurrent updates on one base version: exactly one wins, the other gets 409 carrying the winner")
    func concurrentWriters() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let admin = try await client.caller(.demoAdmin)
            let path = "/v1/courses/\(try await client.course(titled: SeededCourse.matematicas, as: teacher).id)"

            async let byTeacher = client.send(.patch, path, as: teacher, body: ["title": "Por el profesor", "version": 1])
            async let byAdmin = client.send(.patch, path, as: admin, body: ["title": "Por la admin", "version": 1])
            let responses = try await [byTeacher, byAdmin]

            let winners = responses.filter { $0.status == .ok }
            let losers = responses.filter { $0.status == .conflict }
            #expect(winners.count == 1)
            #expect(losers.count == 1)
            let winner = try #require(winners.first).decode(CourseBody.self)
            let conflict = try expectConflict(try #require(losers.first), .conflict, current: CourseBody.self)
            #expect(conflict.current == winner)
            #expect(conflict.currentVersion == 2)
        }
    }

    @Test("the losing writer succeeds after re-basing on current_version")
    func rebaseAfterConflict() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            _ = try await client.send(.patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "A", "version": 1])
            let conflict = try expectConflict(
                try await client.send(.patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "B", "version": 1]),
                .conflict, current: CourseBody.self)

            let retry = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "B", "version": conflict.currentVersion])

            #expect(retry.status == .ok)
            #expect(try retry.decode(CourseBody.self).version == 3)
        }
    }

    @Test("a stale body version on a lesson answers 409 with the first writer's lesson")
    func lessonLostUpdate() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let admin = try await client.caller(.demoAdmin)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
            let path = "/v1/courses/\(course.id)/lessons/\(lesson.id)"
            _ = try await client.send(.patch, path, as: teacher, body: ["duration_minutes": 45, "version": 1])

            let second = try await client.send(.patch, path, as: admin, body: ["title": "Naturales", "version": 1])

            let conflict = try expectConflict(second, .conflict, current: LessonBody.self)
            #expect(conflict.currentVersion == 2)
            #expect(conflict.current.durationMinutes == 45)
            #expect(conflict.current.title == lesson.title)
        }
    }

    @Test("a stale body version on a profile answers 409 with the first writer's user, without secrets")
    func userLostUpdate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let admin = try await client.caller(.demoAdmin)
            _ = try await client.send(.patch, "/v1/users/me", as: student, body: ["first_name": "Anita", "version": 1])

            let second = try await client.send(
                .patch, "/v1/users/\(student.id)", as: admin, body: ["last_name": "Pérez", "version": 1])

            let conflict = try expectConflict(second, .conflict, current: UserBody.self)
            #expect(conflict.currentVersion == 2)
            #expect(conflict.current.firstName == "Anita")
            #expect(conflict.current.lastName == "López")
            expectNoInternalMembers(second)
        }
    }

    @Test("a stale body version on progress answers 409 with the first write's progress")
    func progressLostUpdate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            _ = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 10])
            _ = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 300, "version": 1])

            let stale = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "completed": true, "version": 1])

            let conflict = try expectConflict(stale, .conflict, current: LessonProgressBody.self)
            #expect(conflict.currentVersion == 2)
            #expect(conflict.current.watchedSeconds == 300)
            #expect(conflict.current.completed == false)
        }
    }

    // MARK: - If-Match

    @Test("a stale If-Match on a course answers 412 version_conflict with the current course")
    func courseStaleIfMatch() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            _ = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["published": false], headers: .ifMatch(1))

            let stale = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "X"], headers: .ifMatch(1))

            let conflict = try expectConflict(stale, .preconditionFailed, current: CourseBody.self)
            #expect(conflict.currentVersion == 2)
            #expect(conflict.current.published == false)
        }
    }

    @Test("a stale If-Match on a lesson answers 412")
    func lessonStaleIfMatch() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            let stale = try await client.send(
                .patch, "/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher, body: ["title": "X"],
                headers: .ifMatch(7))

            let conflict = try expectConflict(stale, .preconditionFailed, current: LessonBody.self)
            #expect(conflict.current == lesson)
        }
    }

    @Test("a stale If-Match on a profile answers 412")
    func userStaleIfMatch() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let stale = try await client.send(
                .patch, "/v1/users/me", as: student, body: ["first_name": "X"], headers: .ifMatch(2))

            let conflict = try expectConflict(stale, .preconditionFailed, current: UserBody.self)
            #expect(conflict.current == student.user)
        }
    }

    @Test("a stale If-Match on progress answers 412")
    func progressStaleIfMatch() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.swift, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            let stale = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 1], headers: .ifMatch(5))

            let conflict = try expectConflict(stale, .preconditionFailed, current: LessonProgressBody.self)
            #expect(conflict.currentVersion == 1)
            #expect(conflict.current.completed)
        }
    }

    @Test("If-Match takes precedence over a body version")
    func ifMatchWins() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "X", "version": 1],
                headers: .ifMatch(9))

            try expectProblem(response, .preconditionFailed, "version_conflict")
        }
    }

    @Test("a weak If-Match tag never matches (RFC 9110 strong comparison) and answers 412")
    func weakIfMatchFails() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "X"], headers: [.ifMatch: "W/\"1\""])

            try expectProblem(response, .preconditionFailed, "version_conflict")
        }
    }

    @Test("an unparseable If-Match answers 412")
    func garbageIfMatchFails() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "X"], headers: [.ifMatch: "1"])

            try expectProblem(response, .preconditionFailed, "version_conflict")
        }
    }

    @Test("If-Match listing the current tag after a stale one succeeds")
    func ifMatchList() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "X"], headers: [.ifMatch: "\"7\", \"1\""])

            #expect(response.status == .ok)
        }
    }

    @Test("If-Match * accepts whatever version is current")
    func ifMatchAny() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            _ = try await client.createLesson(in: course.id, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "X"], headers: [.ifMatch: "*"])

            #expect(response.status == .ok)
            #expect(try response.decode(CourseBody.self).version == 3)
        }
    }

    // MARK: - No base version

    @Test("a course update with no base version answers 428 precondition_required and changes nothing")
    func courseNeedsBase() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(.patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "X"])

            try expectProblem(response, .preconditionRequired, "precondition_required")
            #expect(try await client.get("/v1/courses/\(course.id)", as: teacher).decode(CourseBody.self) == course)
        }
    }

    @Test("a lesson update with no base version answers 428")
    func lessonNeedsBase() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher, body: ["title": "X"])

            try expectProblem(response, .preconditionRequired, "precondition_required")
        }
    }

    @Test("a profile update with no base version answers 428", arguments: ["/v1/users/me", "/v1/users/{self}"])
    func userNeedsBase(path: String) async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(
                .patch, path.replacingOccurrences(of: "{self}", with: student.id), as: student,
                body: ["first_name": "X"])

            try expectProblem(response, .preconditionRequired, "precondition_required")
        }
    }

    @Test("a body version that is not a positive integer answers 400 validation_failed", arguments: ["\"1\"", "0", "1.5", "null"])
    func invalidBodyVersion(literal: String) async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", bearer: teacher.token, json: #"{"title":"X","version":\#(literal)}"#)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["version"])
        }
    }

    // MARK: - No-op updates

    @Test("an update that changes nothing keeps the version and updated_at")
    func noOpKeepsVersion() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher,
                body: ["title": course.title, "category": course.category, "version": 1])

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(try response.decode(CourseBody.self) == course)
        }
    }

    @Test("a profile update that changes nothing keeps the version")
    func noOpProfile() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(
                .patch, "/v1/users/me", as: student, body: ["first_name": student.user.firstName, "version": 1])

            #expect(try response.decode(UserBody.self) == student.user)
        }
    }

    @Test("a lesson update that changes nothing keeps the lesson's version")
    func noOpLesson() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher,
                body: ["order": lesson.order], headers: .ifMatch(1))

            #expect(try response.decode(LessonBody.self) == lesson)
        }
    }

    // MARK: - ETag and 304

    @Test("a course's ETag round trip: 304 while unchanged, 200 with a new ETag after a change")
    func courseETagRoundTrip() async throws {
        try await withServer { client in
            // Given a reader holding the course's ETag
            let student = try await client.caller(.demoStudent)
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let first = try await client.get("/v1/courses/\(course.id)", as: student)
            let tag = try #require(first.headers[.eTag])

            // When it revalidates while nothing changed, then after the teacher changes the course
            let unchanged = try await client.get("/v1/courses/\(course.id)", as: student, headers: .ifNoneMatch(tag))
            _ = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "Nuevo"], headers: [.ifMatch: tag])
            let changed = try await client.get("/v1/courses/\(course.id)", as: student, headers: .ifNoneMatch(tag))

            // Then it first gets an empty 304 with the same tag, then the new course
            #expect(unchanged.status == .notModified)
            #expect(unchanged.body.readableBytes == 0)
            #expect(unchanged.headers[.eTag] == tag)
            #expect(unchanged.headers[.cacheControl] == "private, no-cache")
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] == "\"2\"")
            #expect(try changed.decode(CourseBody.self).title == "Nuevo")
        }
    }

    @Test("adding a lesson invalidates the course's ETag")
    func lessonCreationInvalidatesCourseETag() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            _ = try await client.createLesson(in: course.id, as: teacher)

            let response = try await client.get("/v1/courses/\(course.id)", as: teacher, headers: .ifNoneMatch("\"1\""))

            #expect(response.status == .ok)
            #expect(try response.decode(CourseBody.self).lessonCount == 7)
        }
    }

    @Test("a lesson answers 304 to its own ETag, also among a list or as a weak tag")
    func lessonNotModified() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            let path = "/v1/courses/\(course.id)/lessons/\(lesson.id)"

            let exact = try await client.get(path, as: student, headers: .ifNoneMatch("\"1\""))
            let listed = try await client.get(path, as: student, headers: .ifNoneMatch("\"5\", \"1\""))
            let weak = try await client.get(path, as: student, headers: .ifNoneMatch("W/\"1\""))
            let other = try await client.get(path, as: student, headers: .ifNoneMatch("\"2\""))

            #expect(exact.status == .notModified)
            #expect(listed.status == .notModified)
            #expect(weak.status == .notModified)
            #expect(other.status == .ok)
        }
    }

    @Test("a user profile answers 304 to its ETag")
    func userNotModified() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/users/\(student.id)", as: admin, headers: .ifNoneMatch("\"1\""))

            #expect(response.status == .notModified)
            #expect(response.headers[.eTag] == "\"1\"")
        }
    }

    @Test("an ETag from GET works as If-Match for the next update")
    func etagAsIfMatch() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)
            let tag = try #require(try await client.get("/v1/users/\(student.id)", as: admin).headers[.eTag])

            let response = try await client.send(
                .patch, "/v1/users/\(student.id)", as: admin, body: ["last_name": "Luna"], headers: [.ifMatch: tag])

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"2\"")
        }
    }

    // MARK: - Never leak storage columns

    @Test(
        "user responses never carry password_hash, search_text or email_key",
        arguments: ["/v1/users?limit=100", "/v1/users/search?q=a", "/v1/users/me", "/v1/users/{self}", "/v1/auth/me"])
    func noInternalUserMembers(path: String) async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.get(path.replacingOccurrences(of: "{self}", with: admin.id), as: admin)

            #expect(response.status == .ok)
            expectNoInternalMembers(response)
        }
    }

    @Test(
        "course responses never carry search_text",
        arguments: ["/v1/courses?limit=100", "/v1/courses/search?q=a", "/v1/users/me/courses"])
    func noInternalCourseMembers(path: String) async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get(path, as: student)

            #expect(response.status == .ok)
            expectNoInternalMembers(response)
        }
    }
}
