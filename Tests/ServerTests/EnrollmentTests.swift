import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `POST/DELETE /v1/courses/{id}/enrollment` and `GET /v1/users/me/courses`.
@Suite(.timeLimit(.minutes(3))) struct EnrollmentTests {
    @Test("enrolling in a published course answers 201 with the enrollment")
    func enrollCreates() async throws {
        try await withServer { client in
            // Given a student not yet enrolled in English for Travellers
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.english, as: student)

            // When they enroll
            let response = try await client.enroll(in: course.id, as: student)

            // Then the enrollment is created for them
            #expect(response.status == .created)
            let enrollment = try response.decode(EnrollmentBody.self)
            #expect(enrollment.courseId == course.id)
            #expect(enrollment.userId == student.id)
            #expect(enrollment.enrolledAt == "2026-11-18T11:06:40Z")
            #expect(response.headers[.location] == "/v1/courses/\(course.id)/enrollment")
        }
    }

    @Test("enrolling again answers 200 with the original enrollment")
    func enrollAgainIsOK() async throws {
        try await withClockedServer { clock, client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.english, as: student)
            let first = try await client.enroll(in: course.id, as: student).decode(EnrollmentBody.self)
            clock.advance(by: 60)

            let again = try await client.enroll(in: course.id, as: student)

            #expect(again.status == .ok)
            #expect(try again.decode(EnrollmentBody.self) == first)
        }
    }

    @Test("a new enrollment shows up in my courses with 0 percent")
    func enrollmentListed() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.english, as: student)

            _ = try await client.enroll(in: course.id, as: student)

            let mine = try await client.get("/v1/users/me/courses", as: student).decode(PageBody<EnrolledCourseBody>.self)
            #expect(mine.total == 4)
            let entry = try #require(mine.items.first { $0.course.id == course.id })
            #expect(entry.completedLessons == 0)
            #expect(entry.totalLessons == 5)
            #expect(entry.percent == 0)
        }
    }

    @Test("teachers and admins may enroll in a published course too")
    func anyRoleEnrolls() async throws {
        try await withServer { client in
            let teacher = try await client.caller(SeededAccount.demoTeacher2)
            let admin = try await client.caller(.demoAdmin)
            let course = try await client.course(titled: SeededCourse.matematicas, as: admin)

            #expect(try await client.enroll(in: course.id, as: teacher).status == .created)
            #expect(try await client.enroll(in: course.id, as: admin).status == .created)
        }
    }

    @Test("a student enrolling in a draft gets 404")
    func draftEnrollmentHidden() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)
            let draft = try await client.course(titled: SeededCourse.draft, as: admin)

            let response = try await client.enroll(in: draft.id, as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("the owner enrolling in their own draft answers 409 course_not_published")
    func draftEnrollmentRefused() async throws {
        try await withServer { client in
            let owner = try await client.caller(.demoTeacher)
            let draft = try await client.course(titled: SeededCourse.draft, as: owner)

            let response = try await client.enroll(in: draft.id, as: owner)

            try expectProblem(response, .conflict, "course_not_published")
        }
    }

    @Test("enrolling in an unknown course answers 404")
    func unknownCourse() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.enroll(in: "does-not-exist", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("enrolling without a token answers 401")
    func anonymousEnrollment() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.english, as: student)

            let response = try await client.send(.post, "/v1/courses/\(course.id)/enrollment")

            try expectProblem(response, .unauthorized, "unauthorized")
        }
    }

    @Test("leaving a course answers 204 and drops it from my courses")
    func unenroll() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.algebra, as: student)

            let response = try await client.delete("/v1/courses/\(course.id)/enrollment", as: student)

            #expect(response.status == .noContent)
            let mine = try await client.get("/v1/users/me/courses", as: student).decode(PageBody<EnrolledCourseBody>.self)
            #expect(mine.total == 2)
            #expect(!mine.items.contains { $0.course.id == course.id })
        }
    }

    @Test("leaving a course one is not enrolled in still answers 204")
    func unenrollIsIdempotent() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.english, as: student)

            let response = try await client.delete("/v1/courses/\(course.id)/enrollment", as: student)

            #expect(response.status == .noContent)
        }
    }

    @Test("leaving affects only the caller's enrollment")
    func unenrollIsPersonal() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let classmate = try await client.caller(SeededAccount.demoStudent(2))
            let course = try await client.course(titled: SeededCourse.algebra, as: student)

            _ = try await client.delete("/v1/courses/\(course.id)/enrollment", as: student)

            let theirs = try await client.get("/v1/users/me/courses", as: classmate)
                .decode(PageBody<EnrolledCourseBody>.self)
            #expect(theirs.items.contains { $0.course.id == course.id })
        }
    }

    @Test("leaving then re-enrolling keeps the progress already recorded")
    func reenrollKeepsProgress() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.swift, as: student)
            _ = try await client.delete("/v1/courses/\(course.id)/enrollment", as: student)

            let again = try await client.enroll(in: course.id, as: student)

            #expect(again.status == .created)
            let progress = try await client.get("/v1/courses/\(course.id)/progress", as: student)
                .decode(CourseProgressBody.self)
            #expect(progress.completedLessons == 2)
        }
    }

    @Test("a student leaving a draft gets 404")
    func unenrollDraftHidden() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)
            let draft = try await client.course(titled: SeededCourse.draft, as: admin)

            let response = try await client.delete("/v1/courses/\(draft.id)/enrollment", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("a student leaves a course that was unpublished after they enrolled")
    func leaveUnpublishedCourse() async throws {
        try await withServer { client in
            // Given a student enrolled in a course its teacher has since unpublished
            let student = try await client.caller(.demoStudent)
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let unpublish = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["published": false, "version": 1])
            #expect(unpublish.status == .ok)

            // When they leave it
            let response = try await client.delete("/v1/courses/\(course.id)/enrollment", as: student)

            // Then they are out, and it is gone from their courses
            #expect(response.status == .noContent)
            let mine = try await client.get("/v1/users/me/courses", as: student).decode(PageBody<EnrolledCourseBody>.self)
            #expect(!mine.items.contains { $0.course.id == course.id })
            #expect(mine.total == 2)
        }
    }

    @Test("a course unpublished after a student enrolled is neither listed nor counted in their courses")
    func unpublishedCourseIsNotListed() async throws {
        try await withServer { client in
            // Given a student enrolled in a course its teacher has since unpublished (GET answers 404)
            let student = try await client.caller(.demoStudent)
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let unpublish = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["published": false, "version": 1])
            #expect(unpublish.status == .ok)
            #expect(try await client.get("/v1/courses/\(course.id)", as: student).status == .notFound)

            // When they list their courses
            let mine = try await client.get("/v1/users/me/courses", as: student).decode(PageBody<EnrolledCourseBody>.self)

            // Then the draft's title does not leak there either
            #expect(!mine.items.contains { $0.course.id == course.id })
            #expect(mine.total == 2)
        }
    }

    // MARK: - My courses

    @Test("my courses lists the seeded enrollments with completed, total and percent")
    func myCourses() async throws {
        try await withServer { client in
            // Given student2, seeded with 1 of 6, 2 of 7 and 3 of 8 lessons completed
            let student = try await client.caller(SeededAccount.demoStudent(2))

            // When they list their courses
            let response = try await client.get("/v1/users/me/courses", as: student)

            // Then each course carries its progress
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let page = try response.decode(PageBody<EnrolledCourseBody>.self)
            #expect(page.total == 3)
            let byTitle = Dictionary(uniqueKeysWithValues: page.items.map { ($0.course.title, $0) })
            #expect(byTitle[SeededCourse.matematicas]?.completedLessons == 1)
            #expect(byTitle[SeededCourse.matematicas]?.totalLessons == 6)
            #expect(byTitle[SeededCourse.matematicas]?.percent == 16.67)
            #expect(byTitle[SeededCourse.algebra]?.percent == 28.57)
            #expect(byTitle[SeededCourse.swift]?.percent == 37.5)
            #expect(byTitle[SeededCourse.swift]?.course.lessonCount == 8)
            expectNoInternalMembers(response)
        }
    }

    @Test("my courses paginates and validates the limit")
    func myCoursesPagination() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let page = try await client.get("/v1/users/me/courses?limit=2&page=2", as: student)
                .decode(PageBody<EnrolledCourseBody>.self)
            let refused = try await client.get("/v1/users/me/courses?limit=500", as: student)

            #expect((page.page, page.limit, page.total, page.items.count) == (2, 2, 3, 1))
            try expectProblem(refused, .badRequest, "validation_failed")
        }
    }

    @Test("a teacher with no enrollments has an empty course list")
    func myCoursesEmpty() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let page = try await client.get("/v1/users/me/courses", as: teacher).decode(PageBody<EnrolledCourseBody>.self)

            #expect(page.total == 0)
            #expect(page.items.isEmpty)
        }
    }
}
