import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// `GET/POST /v1/courses`, `GET /v1/courses/search`, `GET/PATCH/DELETE /v1/courses/{id}`.
@Suite(.timeLimit(.minutes(3))) struct CourseRoutesTests {
    // MARK: - Listing

    @Test("a student's course list holds only the seven published courses")
    func studentListsPublishedOnly() async throws {
        try await withServer { client in
            // Given a signed-in student
            let student = try await client.caller(.demoStudent)

            // When they list courses
            let response = try await client.get("/v1/courses?limit=100", as: student)

            // Then they see the published courses only, as a page
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "private, no-cache")
            let page = try response.decode(PageBody<CourseBody>.self)
            #expect(page.total == 7)
            #expect(page.items.count == 7)
            #expect(page.items.allSatisfy { $0.published })
            #expect(!page.items.contains { $0.title == SeededCourse.draft })
        }
    }

    @Test("a teacher's course list adds their own draft to the published courses")
    func teacherListsOwnDraft() async throws {
        try await withServer { client in
            let owner = try await client.caller(.demoTeacher)
            let other = try await client.caller(SeededAccount.demoTeacher2)

            let ownerTitles = try await client.allCourses(as: owner).map(\.title)
            let otherTitles = try await client.allCourses(as: other).map(\.title)

            #expect(ownerTitles.count == 8)
            #expect(ownerTitles.contains(SeededCourse.draft))
            #expect(otherTitles.count == 7)
            #expect(!otherTitles.contains(SeededCourse.draft))
        }
    }

    @Test("each course of a list page is exactly what reading the course answers, after an update moved some of its members")
    func listItemsAreWhatReadingAnswers() async throws {
        let clock = TestClock()
        try await withServer(.testing(clock: clock)) { client in
            // Given a course updated a while after it was made, so every member may differ from its neighbour
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            clock.advance(by: 90)
            let update = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher,
                body: ["description": "Aritmética", "thumbnail_url": "https://cdn.example/m.png", "version": 1])
            #expect(update.status == .ok)

            // When the list and the course itself are read
            let list = try await client.get("/v1/courses?limit=100", as: teacher).jsonObject()
            let read = try await client.get("/v1/courses/\(course.id)", as: teacher).jsonObject()

            // Then the list's item is the course, member for member
            let items = try #require(list["items"] as? [[String: Any]])
            let item = try #require(items.first { $0["id"] as? String == course.id })
            #expect(item as NSDictionary == read as NSDictionary)
            #expect(item["created_at"] as? String != item["updated_at"] as? String)
        }
    }

    @Test("an admin's course list holds every course of the tenant, drafts included")
    func adminListsEverything() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let page = try await client.get("/v1/courses", as: admin).decode(PageBody<CourseBody>.self)

            #expect(page.total == 8)
            #expect(page.items.contains { $0.title == SeededCourse.draft && !$0.published })
        }
    }

    @Test("the category filter keeps only courses of that category")
    func categoryFilter() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/courses?category=mathematics", as: student)

            #expect(response.status == .ok)
            let page = try response.decode(PageBody<CourseBody>.self)
            #expect(page.total == 2)
            #expect(Set(page.items.map(\.title)) == [SeededCourse.matematicas, SeededCourse.algebra])
        }
    }

    @Test("an unknown category answers 400 validation_failed naming the category")
    func unknownCategoryIsRefused() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/courses?category=cooking", as: student)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["category"])
        }
    }

    @Test("pages carry page, limit and total and split the list without overlap")
    func pagination() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let first = try await client.get("/v1/courses?page=1&limit=5", as: admin).decode(PageBody<CourseBody>.self)
            let second = try await client.get("/v1/courses?page=2&limit=5", as: admin).decode(PageBody<CourseBody>.self)

            #expect((first.page, first.limit, first.total) == (1, 5, 8))
            #expect((second.page, second.limit, second.total) == (2, 5, 8))
            #expect(first.items.count == 5)
            #expect(second.items.count == 3)
            #expect(Set(first.items.map(\.id)).isDisjoint(with: second.items.map(\.id)))
        }
    }

    @Test(
        "page below 1 or limit outside 1...100 answers 400 validation_failed",
        arguments: ["page=0", "page=-1", "page=abc", "limit=0", "limit=101", "limit=ten"])
    func paginationBounds(query: String) async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/courses?\(query)", as: student)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.first?.field == String(query.prefix { $0 != "=" }))
        }
    }

    @Test("a limit of exactly 100 is accepted")
    func limitOfHundred() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/courses?limit=100", as: student)

            #expect(response.status == .ok)
            #expect(try response.decode(PageBody<CourseBody>.self).limit == 100)
        }
    }

    // MARK: - Search

    @Test("search ignores accents and case: matematicas finds Matemáticas básicas")
    func searchIsAccentInsensitive() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/courses/search?q=matematicas", as: student)

            #expect(response.status == .ok)
            let page = try response.decode(PageBody<CourseBody>.self)
            #expect(page.items.map(\.title) == [SeededCourse.matematicas])
            #expect(page.total == 1)
        }
    }

    @Test("search matches uppercase queries against accented descriptions")
    func searchMatchesDescriptions() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let page = try await client.get("/v1/courses/search?q=CINEMATICA", as: student)
                .decode(PageBody<CourseBody>.self)

            #expect(page.items.map(\.title) == ["Física: movimiento y energía"])
        }
    }

    @Test("search combines with the category filter")
    func searchWithCategory() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let inScience = try await client.get("/v1/courses/search?q=energia&category=science", as: student)
                .decode(PageBody<CourseBody>.self)
            let inArts = try await client.get("/v1/courses/search?q=energia&category=arts", as: student)
                .decode(PageBody<CourseBody>.self)

            #expect(inScience.total == 1)
            #expect(inArts.total == 0)
        }
    }

    @Test("a student's search never finds a draft")
    func searchHidesDrafts() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let owner = try await client.caller(.demoTeacher)

            let asStudent = try await client.get("/v1/courses/search?q=emprendimiento", as: student)
                .decode(PageBody<CourseBody>.self)
            let asOwner = try await client.get("/v1/courses/search?q=emprendimiento", as: owner)
                .decode(PageBody<CourseBody>.self)

            #expect(asStudent.total == 0)
            #expect(asOwner.items.map(\.title) == [SeededCourse.draft])
        }
    }

    @Test(
        "search without q, with only blanks or beyond 200 code points answers 400 validation_failed",
        arguments: ["", "?q=", "?q=%20%20", "?q=%09", "?q=%E3%80%80%0A", "?q=" + String(repeating: "a", count: 201)])
    func searchNeedsQuery(suffix: String) async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/courses/search\(suffix)", as: student)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["q"])
        }
    }

    @Test("search keeps a q with one non-blank among blanks, and exactly 200 code points", arguments: ["?q=%09Swift%20", "?q=" + String(repeating: "a", count: 200)])
    func searchAcceptsTheSpecsQueries(suffix: String) async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/courses/search\(suffix)", as: student)

            #expect(response.status == .ok, "\(response.text)")
        }
    }

    @Test("search treats % and _ literally")
    func searchEscapesWildcards() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let percent = try await client.get("/v1/courses/search?q=%25", as: student).decode(PageBody<CourseBody>.self)
            let underscore = try await client.get("/v1/courses/search?q=_", as: student).decode(PageBody<CourseBody>.self)

            #expect(percent.total == 0)
            #expect(underscore.total == 0)
        }
    }

    // MARK: - Reading one course

    @Test("reading a course answers 200 with ETag of its version and private, no-cache")
    func getCourse() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let listed = try await client.course(titled: SeededCourse.matematicas, as: student)

            let response = try await client.get("/v1/courses/\(listed.id)", as: student)

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"\(listed.version)\"")
            #expect(response.headers[.cacheControl] == "private, no-cache")
            let course = try response.decode(CourseBody.self)
            #expect(course == listed)
            #expect(course.lessonCount == 6)
            #expect(try response.jsonObject().keys.sorted() == [
                "category", "created_at", "description", "id", "lesson_count", "published", "teacher_id",
                "thumbnail_url", "title", "updated_at", "version",
            ])
        }
    }

    @Test("a student asking for a draft gets 404, as if it did not exist")
    func studentCannotSeeDraft() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)
            let draft = try await client.course(titled: SeededCourse.draft, as: admin)

            let response = try await client.get("/v1/courses/\(draft.id)", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("a teacher asking for another teacher's draft gets 404")
    func otherTeacherCannotSeeDraft() async throws {
        try await withServer { client in
            let owner = try await client.caller(.demoTeacher)
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let draft = try await client.course(titled: SeededCourse.draft, as: owner)

            let response = try await client.get("/v1/courses/\(draft.id)", as: other)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("the owning teacher and an admin read the draft")
    func ownerAndAdminSeeDraft() async throws {
        try await withServer { client in
            let owner = try await client.caller(.demoTeacher)
            let admin = try await client.caller(.demoAdmin)
            let draft = try await client.course(titled: SeededCourse.draft, as: admin)

            let byOwner = try await client.get("/v1/courses/\(draft.id)", as: owner)
            let byAdmin = try await client.get("/v1/courses/\(draft.id)", as: admin)

            #expect(try byOwner.decode(CourseBody.self) == draft)
            #expect(try byAdmin.decode(CourseBody.self) == draft)
        }
    }

    @Test("an unknown course id answers 404 not_found")
    func unknownCourse() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.get("/v1/courses/00000000-0000-0000-0000-000000000000", as: admin)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("reading courses without a token answers 401")
    func anonymousIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/v1/courses")

            try expectProblem(response, .unauthorized, "unauthorized")
        }
    }

    // MARK: - Creating

    @Test("a teacher creates a course: 201, Location, ETag, version 1, owned by them, defaults applied")
    func teacherCreatesCourse() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .post, "/v1/courses", as: teacher, body: ["title": "  Geometría  ", "category": "mathematics"])

            #expect(response.status == .created)
            let course = try response.decode(CourseBody.self)
            #expect(response.headers[.location] == "/v1/courses/\(course.id)")
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(course.title == "Geometría")
            #expect(course.description == "")
            #expect(course.thumbnailUrl == nil)
            #expect(course.published == false)
            #expect(course.teacherId == teacher.id)
            #expect(course.lessonCount == 0)
            #expect(course.version == 1)
            #expect(course.createdAt == "2026-11-18T11:06:40Z")
            let fetched = try await client.get("/v1/courses/\(course.id)", as: teacher).decode(CourseBody.self)
            #expect(fetched == course)
        }
    }

    @Test("an admin creates a course for a teacher with teacher_id")
    func adminAssignsTeacher() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let teacher2 = try await client.user(email: SeededAccount.demoTeacher2.email, as: admin)

            let course = try await client.createCourse(as: admin, extra: ["teacher_id": teacher2.id])

            #expect(course.teacherId == teacher2.id)
        }
    }

    @Test("an admin naming a student as teacher_id answers 400 validation_failed")
    func teacherIdMustBeTeacher() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.user(email: Credentials.demoStudent.email, as: admin)

            let response = try await client.send(
                .post, "/v1/courses", as: admin,
                body: ["title": "T", "category": "arts", "teacher_id": student.id])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["teacher_id"])
        }
    }

    @Test("a teacher setting teacher_id on create answers 403 field_not_writable")
    func teacherCannotSetTeacherIdOnCreate() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let admin = try await client.caller(.demoAdmin)
            let teacher2 = try await client.user(email: SeededAccount.demoTeacher2.email, as: admin)

            let response = try await client.send(
                .post, "/v1/courses", as: teacher,
                body: ["title": "T", "category": "arts", "teacher_id": teacher2.id])

            let problem = try expectProblem(response, .forbidden, "field_not_writable")
            #expect(problem.errors?.map(\.field) == ["teacher_id"])
        }
    }

    @Test("a student creating a course answers 403 forbidden and creates nothing")
    func studentCannotCreate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.send(
                .post, "/v1/courses", as: student, body: ["title": "Mi curso", "category": "arts"])

            try expectProblem(response, .forbidden, "forbidden")
            #expect(try await client.allCourses(as: admin).count == 8)
        }
    }

    @Test("an unknown member in a new course answers 400 validation_failed")
    func unknownMemberOnCreate() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .post, "/v1/courses", as: teacher, body: ["title": "T", "category": "arts", "level": "advanced"])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["level"])
            #expect(problem.errors?.first?.code == "unknown_field")
        }
    }

    @Test("a new course without title and with an unknown category names both fields")
    func invalidNewCourse() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .post, "/v1/courses", as: teacher, body: ["category": "cooking", "thumbnail_url": "ftp://x"])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(Set(problem.errors?.map(\.field) ?? []) == ["title", "category", "thumbnail_url"])
        }
    }

    @Test("a title over 200 characters answers 400 validation_failed")
    func titleTooLong() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .post, "/v1/courses", as: teacher,
                body: ["title": String(repeating: "a", count: 201), "category": "arts"])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.first?.code == "too_long")
        }
    }

    @Test("a new course body sent as text/plain answers 415")
    func createNeedsJSON() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .post, "/v1/courses", bearer: teacher.token, json: #"{"title":"T","category":"arts"}"#,
                contentType: "text/plain")

            try expectProblem(response, .unsupportedMediaType, "unsupported_media_type")
        }
    }

    // MARK: - Updating

    @Test("the owning teacher updates a course: 200, version + 1, new ETag")
    func ownerUpdates() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher,
                body: ["description": "Aritmética", "thumbnail_url": "https://cdn.example/m.png", "version": 1])

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"2\"")
            let updated = try response.decode(CourseBody.self)
            #expect(updated.version == 2)
            #expect(updated.description == "Aritmética")
            #expect(updated.thumbnailUrl == "https://cdn.example/m.png")
            #expect(updated.title == course.title)
            #expect(updated.lessonCount == 6)
        }
    }

    @Test("publishing the draft makes it visible to students")
    func publishDraft() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let draft = try await client.course(titled: SeededCourse.draft, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(draft.id)", as: teacher, body: ["published": true], headers: .ifMatch(1))

            #expect(response.status == .ok)
            #expect(try await client.get("/v1/courses/\(draft.id)", as: student).status == .ok)
        }
    }

    @Test("thumbnail_url null clears the thumbnail")
    func clearThumbnail() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.createCourse(
                as: teacher, extra: ["thumbnail_url": "https://cdn.example/g.png"])

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["thumbnail_url": NSNull(), "version": 1])

            #expect(try response.decode(CourseBody.self).thumbnailUrl == nil)
            #expect(try response.jsonObject()["thumbnail_url"] is NSNull)
        }
    }

    @Test("a teacher updating another teacher's published course answers 403 forbidden")
    func nonOwnerTeacherCannotUpdate() async throws {
        try await withServer { client in
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let course = try await client.course(titled: SeededCourse.matematicas, as: other)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: other, body: ["title": "Mío", "version": 1])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a teacher updating another teacher's draft answers 404")
    func nonOwnerTeacherCannotSeeDraftToUpdate() async throws {
        try await withServer { client in
            let owner = try await client.caller(.demoTeacher)
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let draft = try await client.course(titled: SeededCourse.draft, as: owner)

            let response = try await client.send(
                .patch, "/v1/courses/\(draft.id)", as: other, body: ["title": "Mío", "version": 1])

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("a student updating a course answers 403 forbidden")
    func studentCannotUpdate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: student, body: ["title": "Mío", "version": 1])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a teacher setting teacher_id on update answers 403 field_not_writable")
    func teacherCannotReassign() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["teacher_id": teacher.id, "version": 1])

            let problem = try expectProblem(response, .forbidden, "field_not_writable")
            #expect(problem.errors?.map(\.field) == ["teacher_id"])
        }
    }

    @Test("an admin reassigns a course to another teacher, who may then edit it")
    func adminReassigns() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let teacher2 = try await client.caller(SeededAccount.demoTeacher2)
            let course = try await client.course(titled: SeededCourse.matematicas, as: admin)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: admin, body: ["teacher_id": teacher2.id, "version": 1])

            #expect(response.status == .ok)
            #expect(try response.decode(CourseBody.self).teacherId == teacher2.id)
            let edit = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher2, body: ["title": "Matemáticas I", "version": 2])
            #expect(edit.status == .ok)
        }
    }

    @Test(
        "a malformed teacher_id answers 400 before the version is compared, and changes nothing",
        arguments: ["\\", "a/b", ".."])
    func malformedTeacherBeforeVersion(teacherID: String) async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let course = try await client.course(titled: SeededCourse.matematicas, as: admin)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: admin, body: ["teacher_id": teacherID, "version": 7])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.code) == ["invalid_format"])
            let after = try await client.course(titled: SeededCourse.matematicas, as: admin)
            #expect(after.version == course.version)
        }
    }

    @Test("an unknown member in a course update answers 400 validation_failed")
    func unknownMemberOnUpdate() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["lesson_count": 99, "version": 1])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["lesson_count"])
        }
    }

    @Test("an update with wrong member types answers 400 validation_failed and changes nothing")
    func wrongTypesOnUpdate() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher,
                body: ["published": "yes", "title": 7, "version": 1])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(Set(problem.errors?.map(\.field) ?? []) == ["published", "title"])
            #expect(try await client.get("/v1/courses/\(course.id)", as: teacher).decode(CourseBody.self) == course)
        }
    }

    @Test("numbers where booleans belong are not coerced: published 0 answers 400")
    func noBooleanCoercion() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)

            let response = try await client.send(
                .patch, "/v1/courses/\(course.id)", bearer: teacher.token, json: #"{"published":0,"version":1}"#)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.first?.code == "invalid_type")
        }
    }

    // MARK: - Deleting

    @Test("the owning teacher deletes a course: 204, then 404 and gone from the list")
    func ownerDeletes() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.historia, as: teacher)

            let response = try await client.delete("/v1/courses/\(course.id)", as: teacher)

            #expect(response.status == .noContent)
            #expect(response.body.readableBytes == 0)
            try expectProblem(try await client.get("/v1/courses/\(course.id)", as: teacher), .notFound, "not_found")
            #expect(try await client.allCourses(as: teacher).count == 7)
        }
    }

    @Test("deleting a course removes it from its students' enrolled courses")
    func deleteRemovesEnrollments() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)

            #expect(try await client.delete("/v1/courses/\(course.id)", as: teacher).status == .noContent)

            let mine = try await client.get("/v1/users/me/courses", as: student).decode(PageBody<EnrolledCourseBody>.self)
            #expect(mine.total == 2)
            #expect(!mine.items.contains { $0.course.id == course.id })
        }
    }

    @Test("an admin deletes any teacher's course")
    func adminDeletes() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let course = try await client.course(titled: SeededCourse.english, as: admin)

            #expect(try await client.delete("/v1/courses/\(course.id)", as: admin).status == .noContent)
        }
    }

    @Test("a teacher deleting another teacher's course answers 403 forbidden and keeps it")
    func nonOwnerCannotDelete() async throws {
        try await withServer { client in
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let course = try await client.course(titled: SeededCourse.matematicas, as: other)

            let response = try await client.delete("/v1/courses/\(course.id)", as: other)

            try expectProblem(response, .forbidden, "forbidden")
            #expect(try await client.get("/v1/courses/\(course.id)", as: other).status == .ok)
        }
    }

    @Test("a student deleting a course answers 403 forbidden")
    func studentCannotDelete() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)

            let response = try await client.delete("/v1/courses/\(course.id)", as: student)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }
}
