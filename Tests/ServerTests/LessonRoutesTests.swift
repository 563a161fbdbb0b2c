import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// `GET/POST /v1/courses/{id}/lessons` and `GET/PATCH/DELETE /v1/courses/{id}/lessons/{lessonId}`.
@Suite(.timeLimit(.minutes(3))) struct LessonRoutesTests {
    // MARK: - Reading

    @Test("a student lists a published course's lessons in order")
    func listInOrder() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)

            let response = try await client.get("/v1/courses/\(course.id)/lessons", as: student)

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "private, no-cache")
            let lessons = try response.decode(LessonListBody.self).items
            #expect(lessons.map(\.order) == [1, 2, 3, 4, 5, 6])
            #expect(lessons.first?.title == "Números naturales")
            #expect(lessons.allSatisfy { $0.courseId == course.id })
        }
    }

    @Test("a lesson created with order 1 is listed first, ahead of the older order 1")
    func listOrderFollowsOrderNotCreation() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.createCourse(as: teacher)
            let second = try await client.createLesson(in: course.id, as: teacher, title: "B", extra: ["order": 2])
            let first = try await client.createLesson(in: course.id, as: teacher, title: "A", extra: ["order": 1])

            let lessons = try await client.lessons(of: course.id, as: teacher)

            #expect(lessons.map(\.id) == [first.id, second.id])
        }
    }

    @Test("a student listing a draft's lessons gets 404")
    func draftLessonsHidden() async throws {
        try await withServer { client in
            let owner = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let draft = try await client.course(titled: SeededCourse.draft, as: owner)
            let lesson = try #require(try await client.lessons(of: draft.id, as: owner).first)

            let list = try await client.get("/v1/courses/\(draft.id)/lessons", as: student)
            let single = try await client.get("/v1/courses/\(draft.id)/lessons/\(lesson.id)", as: student)

            try expectProblem(list, .notFound, "not_found")
            try expectProblem(single, .notFound, "not_found")
        }
    }

    @Test("reading one lesson answers 200 with its ETag")
    func getLesson() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let listed = try #require(try await client.lessons(of: course.id, as: student).first)

            let response = try await client.get("/v1/courses/\(course.id)/lessons/\(listed.id)", as: student)

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(response.headers[.cacheControl] == "private, no-cache")
            #expect(try response.decode(LessonBody.self) == listed)
            #expect(try response.jsonObject().keys.sorted() == [
                "content", "course_id", "created_at", "duration_minutes", "id", "order", "title", "updated_at",
                "version", "video_url",
            ])
        }
    }

    @Test("a lesson asked for under another course answers 404")
    func lessonUnderWrongCourse() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let math = try await client.course(titled: SeededCourse.matematicas, as: student)
            let algebra = try await client.course(titled: SeededCourse.algebra, as: student)
            let lesson = try #require(try await client.lessons(of: math.id, as: student).first)

            let response = try await client.get("/v1/courses/\(algebra.id)/lessons/\(lesson.id)", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("an unknown lesson id answers 404")
    func unknownLesson() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)

            let response = try await client.get("/v1/courses/\(course.id)/lessons/nope", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    // MARK: - Creating

    @Test("the owning teacher adds a lesson: 201, Location, appended after the last order, defaults applied")
    func ownerCreatesLesson() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .post, "/v1/courses/\(course.id)/lessons", as: teacher, body: ["title": "Álgebra elemental"])

            #expect(response.status == .created)
            let lesson = try response.decode(LessonBody.self)
            #expect(response.headers[.location] == "/v1/courses/\(course.id)/lessons/\(lesson.id)")
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(lesson.order == 7)
            #expect(lesson.content == "")
            #expect(lesson.durationMinutes == 0)
            #expect(lesson.videoUrl == nil)
            #expect(lesson.version == 1)
            #expect(lesson.courseId == course.id)
        }
    }

    @Test("adding a lesson bumps the course's version and lesson_count")
    func createBumpsCourse() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let before = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            _ = try await client.createLesson(in: before.id, as: teacher)

            let after = try await client.get("/v1/courses/\(before.id)", as: teacher)
            #expect(after.headers[.eTag] == "\"\(before.version + 1)\"")
            let course = try after.decode(CourseBody.self)
            #expect(course.version == before.version + 1)
            #expect(course.lessonCount == before.lessonCount + 1)
        }
    }

    @Test("an admin adds a lesson to any course with every member set")
    func adminCreatesFullLesson() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let course = try await client.course(titled: SeededCourse.english, as: admin)

            let lesson = try await client.createLesson(
                in: course.id, as: admin, title: "At the museum",
                extra: [
                    "content": "Vocabulary", "order": 3, "duration_minutes": 1440,
                    "video_url": "https://video.example/museum",
                ])

            #expect(lesson.order == 3)
            #expect(lesson.durationMinutes == 1440)
            #expect(lesson.videoUrl == "https://video.example/museum")
            #expect(lesson.content == "Vocabulary")
        }
    }

    @Test("a teacher adding a lesson to another teacher's course answers 403 forbidden")
    func nonOwnerCannotCreate() async throws {
        try await withServer { client in
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let course = try await client.course(titled: SeededCourse.matematicas, as: other)

            let response = try await client.send(
                .post, "/v1/courses/\(course.id)/lessons", as: other, body: ["title": "Intruso"])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student adding a lesson answers 403 forbidden")
    func studentCannotCreate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)

            let response = try await client.send(
                .post, "/v1/courses/\(course.id)/lessons", as: student, body: ["title": "Intruso"])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test(
        "out-of-range lesson members answer 400 validation_failed naming the field",
        arguments: [
            ("duration_minutes", "1441"), ("duration_minutes", "-1"), ("order", "0"), ("order", "1.5"),
            ("video_url", #""javascript:alert(1)""#), ("title", #""   ""#), ("content", "42"),
        ])
    func invalidLessonMembers(field: String, literal: String) async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            var body: [String: Any] = ["title": "Válida"]
            body[field] = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)

            let response = try await client.send(.post, "/v1/courses/\(course.id)/lessons", as: teacher, body: body)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == [field])
        }
    }

    @Test("an unknown lesson member answers 400 validation_failed")
    func unknownLessonMember() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .post, "/v1/courses/\(course.id)/lessons", as: teacher, body: ["title": "T", "course_id": course.id])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["course_id"])
        }
    }

    // MARK: - Updating

    @Test("the owning teacher updates a lesson: 200, version + 1, course version unchanged")
    func ownerUpdatesLesson() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher,
                body: ["title": "Los números naturales", "duration_minutes": 30], headers: .ifMatch(1))

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"2\"")
            let updated = try response.decode(LessonBody.self)
            #expect(updated.title == "Los números naturales")
            #expect(updated.durationMinutes == 30)
            #expect(updated.content == lesson.content)
            #expect(updated.version == 2)
            let unchanged = try await client.get("/v1/courses/\(course.id)", as: teacher).decode(CourseBody.self)
            #expect(unchanged.version == course.version)
        }
    }

    @Test("moving the first lesson past the last one reorders the list")
    func reorder() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let first = try #require(try await client.lessons(of: course.id, as: teacher).first)

            _ = try await client.send(
                .patch, "/v1/courses/\(course.id)/lessons/\(first.id)", as: teacher, body: ["order": 7, "version": 1])

            let lessons = try await client.lessons(of: course.id, as: teacher)
            #expect(lessons.last?.id == first.id)
            #expect(lessons.map(\.order) == [2, 3, 4, 5, 6, 7])
        }
    }

    @Test("video_url null clears a lesson's video")
    func clearVideo() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.createCourse(as: teacher)
            let lesson = try await client.createLesson(
                in: course.id, as: teacher, extra: ["video_url": "https://video.example/a"])

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher,
                body: ["video_url": NSNull(), "version": 1])

            #expect(try response.decode(LessonBody.self).videoUrl == nil)
        }
    }

    @Test("a teacher updating a lesson of another teacher's course answers 403 forbidden")
    func nonOwnerCannotUpdate() async throws {
        try await withServer { client in
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let course = try await client.course(titled: SeededCourse.matematicas, as: other)
            let lesson = try #require(try await client.lessons(of: course.id, as: other).first)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)/lessons/\(lesson.id)", as: other,
                body: ["title": "Intruso", "version": 1])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student updating a lesson answers 403 forbidden")
    func studentCannotUpdate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)/lessons/\(lesson.id)", as: student,
                body: ["title": "Intruso", "version": 1])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    // MARK: - Deleting

    @Test("the owning teacher deletes a lesson: 204, then 404, and the course version and count move")
    func ownerDeletesLesson() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            let response = try await client.delete("/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher)

            #expect(response.status == .noContent)
            let gone = try await client.get("/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher)
            try expectProblem(gone, .notFound, "not_found")
            let after = try await client.get("/v1/courses/\(course.id)", as: teacher).decode(CourseBody.self)
            #expect(after.version == course.version + 1)
            #expect(after.lessonCount == course.lessonCount - 1)
        }
    }

    @Test("deleting a lesson drops it from learners' progress totals")
    func deleteUpdatesProgressTotals() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let first = try #require(try await client.lessons(of: course.id, as: teacher).first)

            _ = try await client.delete("/v1/courses/\(course.id)/lessons/\(first.id)", as: teacher)

            let progress = try await client.get("/v1/courses/\(course.id)/progress", as: student)
                .decode(CourseProgressBody.self)
            #expect(progress.totalLessons == 7)
            #expect(!progress.lessons.contains { $0.lessonId == first.id })
        }
    }

    @Test("a teacher deleting a lesson of another teacher's course answers 403 forbidden")
    func nonOwnerCannotDelete() async throws {
        try await withServer { client in
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let course = try await client.course(titled: SeededCourse.matematicas, as: other)
            let lesson = try #require(try await client.lessons(of: course.id, as: other).first)

            let response = try await client.delete("/v1/courses/\(course.id)/lessons/\(lesson.id)", as: other)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student deleting a lesson answers 403 forbidden")
    func studentCannotDelete() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            let response = try await client.delete("/v1/courses/\(course.id)/lessons/\(lesson.id)", as: student)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }
}
