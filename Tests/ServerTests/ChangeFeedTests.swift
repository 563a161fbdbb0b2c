import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `GET /v1/sync/changes`: base sync, deltas with tombstones, visibility, paging, expiry.
@Suite(.timeLimit(.minutes(3))) struct ChangeFeedTests {
    /// Lessons of the seven published demo courses.
    static let publishedLessonCount = 6 + 7 + 8 + 5 + 6 + 6 + 5

    @Test("a student's base sync holds the published catalogue with its lessons and their own enrollments, progress and profile")
    func studentBaseSync() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            var state = PulledState()
            try await client.pull(as: student, into: &state)

            let types = Dictionary(grouping: state.entities.values, by: \.type).mapValues(\.count)
            #expect(types["course"] == 7)
            #expect(types["lesson"] == Self.publishedLessonCount)
            #expect(types["enrollment"] == 3)
            #expect(types["progress"] == 0 + 1 + 2)
            #expect(types["profile"] == 1)
            #expect(state.entities["profile/\(student.id)"]?.data?.role == "student")
            #expect(!state.titles("course").contains(SeededCourse.draft))
            #expect(state.requests == 1)
        }
    }

    @Test("a teacher's base sync adds their own draft and its lessons; an admin's holds every course")
    func teacherAndAdminBaseSync() async throws {
        try await withServer { client in
            var teacher = PulledState()
            try await client.pull(as: try await client.caller(.demoTeacher), into: &teacher)
            var other = PulledState()
            try await client.pull(as: try await client.caller(SeededAccount.demoTeacher2), into: &other)
            var admin = PulledState()
            try await client.pull(as: try await client.caller(.demoAdmin), into: &admin)

            #expect(teacher.titles("course").contains(SeededCourse.draft))
            #expect(teacher.entities.values.filter { $0.type == "lesson" }.count == Self.publishedLessonCount + 5)
            #expect(!other.titles("course").contains(SeededCourse.draft))
            #expect(admin.titles("course").count == 8)
        }
    }

    @Test("six kinds of change reach a learner in one pull, collapsed, and leave the same state as a fresh base sync")
    func sixChangesInOnePull() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let teacher = try await client.caller(.demoTeacher)
            var state = PulledState()
            try await client.pull(as: student, into: &state)

            // A teacher renames a course (twice), unpublishes one, deletes one, publishes a new one,
            // renames a lesson and deletes another.
            let matematicas = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let historia = try await client.course(titled: SeededCourse.historia, as: teacher)
            let swift = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lessons = try await client.lessons(of: matematicas.id, as: teacher)
            let first = try #require(lessons.first)
            let second = try #require(lessons.dropFirst().first)
            var version = matematicas.version
            for title in ["Matemáticas I", "Matemáticas 1"] {
                let renamed = try await client.send(
                    .patch, "/v1/courses/\(matematicas.id)", as: teacher, body: ["title": title, "version": version])
                version = try client.expectOK(CourseBody.self, renamed, "rename").version
            }
            _ = try await client.send(
                .patch, "/v1/courses/\(historia.id)", as: teacher, body: ["published": false, "version": historia.version])
            #expect(try await client.delete("/v1/courses/\(swift.id)", as: teacher).status == .noContent)
            let created = try await client.createCourse(as: teacher, title: "Geometría", published: true)
            _ = try await client.send(
                .patch, "/v1/courses/\(matematicas.id)/lessons/\(first.id)", as: teacher,
                body: ["title": "Números enteros", "version": first.version])
            #expect(try await client.delete("/v1/courses/\(matematicas.id)/lessons/\(second.id)", as: teacher).status == .noContent)

            // The learner pulls once.
            let before = state.requests
            let response = try await client.changes(as: student, cursor: state.cursor)
            let page = try client.expectOK(ChangePageBody.self, response, "pull")
            state.apply(page)

            #expect(state.requests - before == 1)
            #expect(!page.hasMore)
            let keys = page.changes.map(\.key)
            #expect(Set(keys).count == keys.count, "one entry per entity")
            let byKey = Dictionary(page.changes.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
            #expect(byKey["course/\(matematicas.id)"]?.title == "Matemáticas 1")
            #expect(byKey["course/\(historia.id)"]?.op == "delete")
            #expect(byKey["course/\(swift.id)"]?.op == "delete")
            #expect(byKey["enrollment/\(swift.id)"]?.op == "delete")
            #expect(byKey["course/\(created.id)"]?.op == "upsert")
            #expect(byKey["lesson/\(first.id)"]?.title == "Números enteros")
            #expect(byKey["lesson/\(second.id)"]?.op == "delete")
            #expect(byKey["lesson/\(second.id)"]?.courseId == matematicas.id)

            var fresh = PulledState()
            try await client.pull(as: student, into: &fresh)
            #expect(state.keys == fresh.keys)
            #expect(state.titles("course") == fresh.titles("course"))
            #expect(state.titles("lesson") == fresh.titles("lesson"))
        }
    }

    @Test("a base sync paged five at a time sees every entity once, in as many requests as pages")
    func pagedBaseSync() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            var whole = PulledState()
            try await client.pull(as: student, into: &whole)
            var paged = PulledState()
            try await client.pull(as: student, into: &paged, limit: 5)

            #expect(paged.keys == whole.keys)
            #expect(paged.seen.count == Set(paged.seen).count, "nothing doubled")
            let count = whole.keys.count
            #expect(paged.requests <= (count + 4) / 5 + 1)
        }
    }

    @Test("a course created and another deleted while a learner pages through the base sync both end right")
    func changesDuringBaseSync() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let teacher = try await client.caller(.demoTeacher)
            let doomed = try await client.course(titled: SeededCourse.historia, as: teacher)

            var state = PulledState()
            state.apply(try client.expectOK(
                ChangePageBody.self, try await client.changes(as: student, cursor: nil, limit: 4), "first page"))
            let created = try await client.createCourse(as: teacher, title: "Aaa primero", published: true)
            #expect(try await client.delete("/v1/courses/\(doomed.id)", as: teacher).status == .noContent)
            try await client.pull(as: student, into: &state, limit: 4)

            #expect(state.entities["course/\(created.id)"] != nil)
            #expect(state.entities["course/\(doomed.id)"] == nil)
            #expect(!state.entities.values.contains { $0.courseId == doomed.id })
            var fresh = PulledState()
            try await client.pull(as: student, into: &fresh)
            #expect(state.keys == fresh.keys)
        }
    }

    @Test("leaving a course and unpublishing one are deletions for the learner; publishing brings the course with its lessons")
    func losingAndGainingVisibility() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let teacher = try await client.caller(.demoTeacher)
            var state = PulledState()
            try await client.pull(as: student, into: &state)
            let matematicas = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let draft = try await client.course(titled: SeededCourse.draft, as: teacher)

            #expect(try await client.delete("/v1/courses/\(matematicas.id)/enrollment", as: student).status == .noContent)
            _ = try await client.send(
                .patch, "/v1/courses/\(draft.id)", as: teacher, body: ["published": true, "version": draft.version])
            try await client.pull(as: student, into: &state)

            #expect(state.entities["enrollment/\(matematicas.id)"] == nil)
            #expect(state.entities["course/\(draft.id)"]?.title == SeededCourse.draft)
            #expect(state.entities.values.filter { $0.type == "lesson" && $0.courseId == draft.id }.count == 5)

            let published = try await client.course(titled: SeededCourse.draft, as: teacher)
            _ = try await client.send(
                .patch, "/v1/courses/\(draft.id)", as: teacher, body: ["published": false, "version": published.version])
            try await client.pull(as: student, into: &state)
            #expect(state.entities["course/\(draft.id)"] == nil)
            #expect(!state.entities.values.contains { $0.type == "lesson" && $0.courseId == draft.id })
        }
    }

    @Test("a student never hears of a draft: its edits, lessons and deletion stay out of their feed")
    func draftsStayHidden() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let teacher = try await client.caller(.demoTeacher)
            var state = PulledState()
            try await client.pull(as: student, into: &state)
            let cursor = try #require(state.cursor)

            let draft = try await client.createCourse(as: teacher, title: "Borrador secreto", published: false)
            _ = try await client.createLesson(in: draft.id, as: teacher, title: "Lección secreta")
            let seeded = try await client.course(titled: SeededCourse.draft, as: teacher)
            _ = try await client.send(
                .patch, "/v1/courses/\(seeded.id)", as: teacher, body: ["title": "Emprendimiento 2", "version": seeded.version])
            #expect(try await client.delete("/v1/courses/\(draft.id)", as: teacher).status == .noContent)

            let page = try client.expectOK(ChangePageBody.self, try await client.changes(as: student, cursor: cursor), "pull")
            #expect(page.changes.isEmpty, "got \(page.changes.map(\.key))")
            #expect(page.cursor != cursor, "the cursor still moves past what the caller cannot see")
        }
    }

    @Test("a role change expires the cursor: 410 cursor_expired, and a base sync then shows what the new role sees")
    func roleChangeExpiresCursor() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)
            var state = PulledState()
            try await client.pull(as: student, into: &state)
            #expect(!state.titles("course").contains(SeededCourse.draft))

            let user = try await client.user(email: Credentials.demoStudent.email, as: admin)
            let promoted = try await client.send(
                .patch, "/v1/users/\(user.id)", as: admin, body: ["role": "admin", "version": user.version])
            #expect(promoted.status == .ok)

            let expired = try await client.changes(as: student, cursor: state.cursor)
            #expect(expired.status == .gone)
            #expect(expired.headers[.contentType] == "application/problem+json")
            #expect(try expired.decode(Problem.self).code == "cursor_expired")
            var fresh = PulledState()
            try await client.pull(as: student, into: &fresh)
            #expect(fresh.titles("course").contains(SeededCourse.draft))
        }
    }

    @Test("a cursor older than the retention window answers 410 cursor_expired on the movable clock; a caught-up one does not")
    func cursorExpiry() async throws {
        try await withClockedServer { clock, client in
            let student = try await client.caller(.demoStudent)
            let teacher = try await client.caller(.demoTeacher)
            var behind = PulledState()
            try await client.pull(as: student, into: &behind)
            let matematicas = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            _ = try await client.send(
                .patch, "/v1/courses/\(matematicas.id)", as: teacher, body: ["title": "Cambiado", "version": matematicas.version])
            var current = PulledState()
            try await client.pull(as: student, into: &current)

            clock.advance(by: 31 * 24 * 3600)
            let student2 = try await client.caller(.demoStudent)

            let expired = try await client.changes(as: student2, cursor: behind.cursor)
            #expect(expired.status == .gone)
            #expect(try expired.decode(Problem.self).code == "cursor_expired")
            #expect(try await client.changes(as: student2, cursor: current.cursor).status == .ok)
        }
    }

    @Test("a cursor of another user or tenant, or a made-up one, answers 400 invalid_cursor and reveals nothing")
    func foreignCursors() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let other = try await client.caller(SeededAccount.demoStudent(2))
            let acme = try await client.caller(.acmeAdmin)
            var mine = PulledState()
            try await client.pull(as: student, into: &mine)
            var theirs = PulledState()
            try await client.pull(as: acme, into: &theirs)

            for cursor in [try #require(theirs.cursor), try #require(mine.cursor), "not-a-cursor", "eyJ0IjoxfQ", String(repeating: "A", count: 600)] {
                let caller = cursor == mine.cursor ? other : student
                let response = try await client.changes(as: caller, cursor: cursor)
                #expect(response.status == .badRequest, "\(cursor)")
                let problem = try response.decode(Problem.self)
                #expect(problem.code == "invalid_cursor")
                #expect(!response.text.contains("acme") && !response.text.contains(student.id) && !response.text.contains(other.id))
            }
        }
    }

    @Test("limit must be 1...1000", arguments: ["0", "1001", "-1", "x"])
    func limitRange(limit: String) async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let response = try await client.get("/v1/sync/changes?limit=\(limit)", as: student)
            #expect(response.status == .badRequest)
            #expect(try response.decode(Problem.self).code == "validation_failed")
        }
    }

    @Test("the feed needs a signed-in caller")
    func needsAuthentication() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/v1/sync/changes", tenant: "demo")
            #expect(response.status == .unauthorized)
        }
    }
}
