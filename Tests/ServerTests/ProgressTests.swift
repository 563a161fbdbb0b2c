import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `GET/PUT /v1/courses/{id}/progress`.
@Suite(.timeLimit(.minutes(3))) struct ProgressTests {
    // MARK: - Reading

    @Test("a student reads their own seeded progress through a course")
    func readOwnProgress() async throws {
        try await withServer { client in
            // Given student1, seeded with 2 of 8 Swift lessons completed
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.swift, as: student)
            let lessons = try await client.lessons(of: course.id, as: student)

            // When they read their progress
            let response = try await client.get("/v1/courses/\(course.id)/progress", as: student)

            // Then it lists the completed lessons and the totals
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "private, no-cache")
            let progress = try response.decode(CourseProgressBody.self)
            #expect(progress.courseId == course.id)
            #expect(progress.userId == student.id)
            #expect(progress.completedLessons == 2)
            #expect(progress.totalLessons == 8)
            #expect(progress.percent == 25)
            #expect(Set(progress.lessons.map(\.lessonId)) == Set(lessons.prefix(2).map(\.id)))
            #expect(progress.lessons.allSatisfy { $0.completed && $0.completedAt != nil })
        }
    }

    @Test("a learner with no progress reads zero of the course's lessons")
    func readEmptyProgress() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.english, as: student)

            let progress = try await client.get("/v1/courses/\(course.id)/progress", as: student)
                .decode(CourseProgressBody.self)

            #expect(progress.lessons.isEmpty)
            #expect((progress.completedLessons, progress.totalLessons, progress.percent) == (0, 5, 0))
        }
    }

    @Test("the course's teacher reads a learner's progress with user_id")
    func teacherReadsLearner() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)

            let response = try await client.get("/v1/courses/\(course.id)/progress?user_id=\(student.id)", as: teacher)

            #expect(response.status == .ok)
            let progress = try response.decode(CourseProgressBody.self)
            #expect(progress.userId == student.id)
            #expect(progress.completedLessons == 2)
        }
    }

    @Test("an admin reads any learner's progress with user_id")
    func adminReadsLearner() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.user(email: SeededAccount.demoStudent(2).email, as: admin)
            let course = try await client.course(titled: SeededCourse.algebra, as: admin)

            let progress = try await client.get("/v1/courses/\(course.id)/progress?user_id=\(student.id)", as: admin)
                .decode(CourseProgressBody.self)

            #expect(progress.userId == student.id)
            #expect(progress.completedLessons == 2)
        }
    }

    @Test("a teacher who does not own the course asking for a learner's progress answers 403 forbidden")
    func otherTeacherCannotReadLearner() async throws {
        try await withServer { client in
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.swift, as: other)

            let response = try await client.get("/v1/courses/\(course.id)/progress?user_id=\(student.id)", as: other)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student asking for a classmate's progress answers 403 forbidden")
    func studentCannotReadClassmate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let classmate = try await client.caller(SeededAccount.demoStudent(2))
            let course = try await client.course(titled: SeededCourse.swift, as: student)

            let response = try await client.get("/v1/courses/\(course.id)/progress?user_id=\(classmate.id)", as: student)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student naming themselves in user_id reads their own progress")
    func studentNamesThemselves() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.swift, as: student)

            let response = try await client.get("/v1/courses/\(course.id)/progress?user_id=\(student.id)", as: student)

            #expect(response.status == .ok)
            #expect(try response.decode(CourseProgressBody.self).completedLessons == 2)
        }
    }

    @Test("the course's teacher naming an unknown user answers 404")
    func unknownLearner() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)

            let response = try await client.get("/v1/courses/\(course.id)/progress?user_id=nobody", as: teacher)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("a student reading progress of a draft gets 404")
    func draftProgressHidden() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)
            let draft = try await client.course(titled: SeededCourse.draft, as: admin)

            let response = try await client.get("/v1/courses/\(draft.id)/progress", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    // MARK: - Writing

    @Test("the first progress write needs no version and answers version 1")
    func firstWrite() async throws {
        try await withServer { client in
            // Given student1 enrolled in Matemáticas with no progress
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            // When they record watching part of a lesson
            let response = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 120])

            // Then the record starts at version 1, not completed
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(response.headers[.cacheControl] == "private, no-cache")
            let progress = try response.decode(LessonProgressBody.self)
            #expect(progress.lessonId == lesson.id)
            #expect(progress.watchedSeconds == 120)
            #expect(progress.completed == false)
            #expect(progress.completedAt == nil)
            #expect(progress.version == 1)
            #expect(try response.jsonObject()["completed_at"] is NSNull)
        }
    }

    @Test("completing a lesson sets completed_at from the server clock")
    func completionStampedByServer() async throws {
        try await withClockedServer { clock, client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            clock.advance(by: 90)

            let progress = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "completed": true]
            ).decode(LessonProgressBody.self)

            #expect(progress.completed)
            #expect(progress.completedAt == "2026-11-18T11:08:10Z")
            #expect(progress.updatedAt == "2026-11-18T11:08:10Z")
        }
    }

    @Test("a client-sent completed_at answers 400 validation_failed")
    func completedAtIsServerOwned() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            let response = try await client.putProgress(
                in: course.id, as: student,
                ["lesson_id": lesson.id, "completed": true, "completed_at": "2020-01-01T00:00:00Z"])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["completed_at"])
        }
    }

    @Test("a later write without a version answers 428 precondition_required")
    func laterWriteNeedsVersion() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            _ = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 60])

            let response = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 90])

            try expectProblem(response, .preconditionRequired, "precondition_required")
        }
    }

    @Test("a later write with the current version answers 200 with version + 1")
    func laterWriteWithVersion() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            _ = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 60])

            let response = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 90, "completed": true],
                headers: .ifMatch(1))

            #expect(response.status == .ok)
            let progress = try response.decode(LessonProgressBody.self)
            #expect(progress.version == 2)
            #expect(progress.watchedSeconds == 90)
            #expect(progress.completed)
        }
    }

    @Test("a write that changes nothing keeps the version")
    func unchangedWriteKeepsVersion() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            _ = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 60])

            let response = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 60, "version": 1])

            #expect(try response.decode(LessonProgressBody.self).version == 1)
        }
    }

    @Test("completing again keeps the first completed_at; un-completing clears it")
    func completedAtLifecycle() async throws {
        try await withClockedServer { clock, client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            let first = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "completed": true]
            ).decode(LessonProgressBody.self)
            clock.advance(by: 60)

            let again = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "completed": true, "watched_seconds": 5, "version": 1]
            ).decode(LessonProgressBody.self)
            let undone = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "completed": false, "version": 2]
            ).decode(LessonProgressBody.self)

            #expect(again.completedAt == first.completedAt)
            #expect(undone.completed == false)
            #expect(undone.completedAt == nil)
        }
    }

    @Test("completing a lesson raises the course percent in my courses")
    func completionRaisesPercent() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lessons = try await client.lessons(of: course.id, as: student)
            for lesson in lessons.prefix(3) {
                _ = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "completed": true])
            }

            let mine = try await client.get("/v1/users/me/courses", as: student).decode(PageBody<EnrolledCourseBody>.self)

            let entry = try #require(mine.items.first { $0.course.id == course.id })
            #expect(entry.completedLessons == 3)
            #expect(entry.percent == 50)
        }
    }

    @Test(
        "watched_seconds outside 0...86400 answers 400 validation_failed",
        arguments: [-1, 86_401])
    func watchedSecondsBounds(seconds: Int) async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            let response = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": seconds])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["watched_seconds"])
        }
    }

    @Test("watched_seconds of exactly 86400 is accepted")
    func watchedSecondsUpperBound() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            let response = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 86_400])

            #expect(response.status == .ok)
        }
    }

    @Test("a progress write without lesson_id answers 400 validation_failed")
    func lessonIdRequired() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)

            let response = try await client.putProgress(in: course.id, as: student, ["completed": true])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["lesson_id"])
        }
    }

    @Test("a learner not enrolled in the course answers 403 not_enrolled")
    func notEnrolled() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.english, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            let response = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "completed": true])

            try expectProblem(response, .forbidden, "not_enrolled")
        }
    }

    @Test("the course's teacher, not enrolled, answers 403 not_enrolled")
    func teacherNotEnrolled() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            let response = try await client.putProgress(in: course.id, as: teacher, ["lesson_id": lesson.id, "completed": true])

            try expectProblem(response, .forbidden, "not_enrolled")
        }
    }

    @Test("after leaving a course, progress writes answer 403 not_enrolled")
    func leftCourse() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            _ = try await client.delete("/v1/courses/\(course.id)/enrollment", as: student)

            let response = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "completed": true])

            try expectProblem(response, .forbidden, "not_enrolled")
        }
    }

    @Test("a lesson of another course answers 404")
    func lessonOfAnotherCourse() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let math = try await client.course(titled: SeededCourse.matematicas, as: student)
            let algebra = try await client.course(titled: SeededCourse.algebra, as: student)
            let foreign = try #require(try await client.lessons(of: algebra.id, as: student).first)

            let response = try await client.putProgress(in: math.id, as: student, ["lesson_id": foreign.id, "completed": true])

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("progress is per learner: a classmate's first write is version 1 too")
    func progressIsPerLearner() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let classmate = try await client.caller(SeededAccount.demoStudent(3))
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).last)
            _ = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 10])

            let theirs = try await client.putProgress(
                in: course.id, as: classmate, ["lesson_id": lesson.id, "watched_seconds": 20])

            #expect(theirs.status == .ok)
            #expect(try theirs.decode(LessonProgressBody.self).version == 1)
        }
    }
}
