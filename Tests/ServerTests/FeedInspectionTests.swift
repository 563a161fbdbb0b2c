import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The dev console's sync tools: `GET /__dev/tenants/{id}/changes` (the change log, newest first,
/// with the timeline) and `GET /__dev/tenants/{id}/explain` (whether a user's device should hold
/// an entity, and why not), checked against what the change feed really carries.
///
/// `explainAgreesWithTheFeed` makes about 350 requests (2.5 s alone, debug); under the
/// address sanitizer with the whole suite it waits behind every other test for the same two cores,
/// as `SearchWindowTests` did when it exceeded a 3-minute limit in CI. The limit is a hang guard.
@Suite(.timeLimit(.minutes(10))) struct FeedInspectionTests {
    struct ChangeList: Decodable {
        struct Entry: Decodable, Equatable {
            var seq: Int
            var entity: String
            var entityId: String
            var courseId: String?
            var userId: String?
            var draftOf: String?
            var changedAt: String
            var operation: String?
            var exists: Bool
        }

        var timeline: String
        var head: Int
        var prunedThrough: Int
        var items: [Entry]
    }

    struct Explanation: Decodable {
        struct Reason: Decodable {
            var code: String
            var detail: String
        }

        var userId: String
        var role: String
        var entity: String
        var id: String
        var held: Bool
        var reasons: [Reason]
        var codes: [String] { reasons.map(\.code) }
    }

    private func changes(_ client: some TestClientProtocol, _ query: String = "") async throws -> ChangeList {
        try client.expectOK(ChangeList.self, try await client.send(.get, "/__dev/tenants/demo/changes\(query)"), "changes")
    }

    private func explain(_ client: some TestClientProtocol, user: String, _ entity: String, _ id: String) async throws -> Explanation {
        let query = "user=\(user)&entity=\(entity)&id=\(id)".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? ""
        return try client.expectOK(Explanation.self, try await client.send(.get, "/__dev/tenants/demo/explain?\(query)"), "explain")
    }

    @Test("the change log is listed newest first with the timeline and the head; a deleted row's entries say it is gone; `before` pages back")
    func changeLogNewestFirst() async throws {
        try await withServer { client in
            // Given a teacher's new draft course with a lesson, then the lesson deleted
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.createCourse(as: teacher, title: "Borrador de prueba", published: false)
            let lesson = try await client.createLesson(in: course.id, as: teacher)
            #expect(try await client.send(.delete, "/v1/courses/\(course.id)/lessons/\(lesson.id)", bearer: teacher.token).status == .noContent)

            // When the dev console reads the log
            let list = try await changes(client, "?limit=10")

            // Then it is newest first up to the head, on the tenant's timeline
            #expect(list.items.map(\.seq) == list.items.map(\.seq).sorted(by: >))
            #expect(list.items.first?.seq == list.head)
            let tenants = try await client.send(.get, "/__dev/tenants").text
            #expect(tenants.contains(list.timeline))
            // And the lesson's entries say it is gone, the draft course's that it exists, made in teacher1's draft
            let lessonEntries = list.items.filter { $0.entity == "lesson" && $0.entityId == lesson.id }
            #expect(lessonEntries.map(\.operation) == ["delete", "insert"])
            #expect(lessonEntries.allSatisfy { !$0.exists && $0.courseId == course.id })
            let courseEntries = list.items.filter { $0.entity == "course" && $0.entityId == course.id }
            #expect(courseEntries.last?.operation == "insert")
            #expect(courseEntries.allSatisfy { $0.exists && $0.draftOf == teacher.id })

            // And publishing the course logs its update; unpublishing it, its lessons' visibility following it
            let kept = try await client.createLesson(in: course.id, as: teacher, title: "Sigue aquí")
            #expect(try await changes(client, "?limit=3").items.contains { $0.entityId == kept.id && $0.operation == "insert" })
            for published in [true, false] {
                let current = try await client.send(.get, "/v1/courses/\(course.id)", bearer: teacher.token).decode(CourseBody.self)
                let changed = try await client.send(
                    .patch, "/v1/courses/\(course.id)", bearer: teacher.token,
                    json: "{\"published\":\(published),\"version\":\(current.version)}")
                #expect(changed.status == .ok, "\(changed.text)")
            }
            let last = try await changes(client, "?limit=3").items
            #expect(last.contains { $0.entity == "lesson" && $0.entityId == kept.id && $0.operation == "visibility" })
            #expect(last.contains { $0.entity == "course" && $0.entityId == course.id && $0.operation == "update" })

            // And `before` continues where a page ended
            let older = try await changes(client, "?limit=3&before=\(list.items[2].seq)")
            #expect(older.items == Array(list.items[3..<6]))
        }
    }

    @Test("for every entry of the log and four users, explain's `held` is whether the user's base sync carries it, with reasons exactly when not")
    func explainAgreesWithTheFeed() async throws {
        try await withServer { client in
            // Given the demo tenant, a deleted lesson and a student's enrollment
            let teacher = try await client.caller(.demoTeacher)
            let callers = [
                try await client.caller(.demoAdmin), teacher, try await client.caller(.demoStudent),
                try await client.caller(SeededAccount.demoStudent(2)),
            ]
            let course = try #require(try await client.allCourses(as: teacher).first { $0.title == SeededCourse.historia })
            let doomed = try #require(try await client.lessons(of: course.id, as: teacher).first)
            #expect(try await client.send(.delete, "/v1/courses/\(course.id)/lessons/\(doomed.id)", bearer: teacher.token).status == .noContent)
            let log = try await changes(client, "?limit=500")
            var keys: [(entity: String, id: String)] = []
            for entry in log.items where !keys.contains(where: { $0 == (entry.entity, entry.entityId) }) {
                keys.append((entry.entity, entry.entityId))
            }
            keys += [("course", "no-such-course"), ("progress", "no-such-lesson")]

            for caller in callers {
                // When the user's device base-syncs, and the console explains each entity for the user
                var state = PulledState()
                try await client.pull(as: caller, into: &state, limit: 500)
                var held = 0
                for key in keys {
                    let explanation = try await explain(client, user: caller.id, key.entity, key.id)

                    // Then held is whether the feed carried it, with reasons exactly when it did not, each explained
                    let carried = state.entities["\(key.entity)/\(key.id)"] != nil
                    #expect(explanation.held == carried, "\(caller.user.email) \(key.entity)/\(key.id): \(explanation.codes)")
                    #expect(explanation.reasons.isEmpty == carried, "\(caller.user.email) \(key.entity)/\(key.id)")
                    #expect(!explanation.codes.contains("unexplained"), "\(caller.user.email) \(key.entity)/\(key.id)")
                    if explanation.held { held += 1 }
                }
                // Every user's device holds some of the log and not all of it (a deleted lesson, unknown ids)
                #expect(held > 0 && held < keys.count, "\(caller.user.email): \(held) of \(keys.count) held")
            }

            // And the reasons name what keeps each one off a student's device
            let student = callers[2]
            let draft = try #require(try await client.allCourses(as: teacher).first { $0.title == SeededCourse.draft })
            #expect(try await explain(client, user: student.user.email, "course", draft.id).codes == ["draft"])
            #expect(try await explain(client, user: student.id, "lesson", doomed.id).codes == ["deleted"])
            #expect(try await explain(client, user: student.id, "course", "no-such-course").codes == ["missing"])
            #expect(try await explain(client, user: student.id, "profile", teacher.id).codes == ["not_own"])
            #expect(try await explain(client, user: teacher.id, "course", draft.id).held)
        }
    }

    @Test("the change log's page is a backwards seek on the primary key, never a scan of the log")
    func pageSeeksTheKey() async throws {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("plan")), at: nil)
        let plan = try await database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + RecentChanges.sql, arguments: [Int64.max, 50]).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("USING INTEGER PRIMARY KEY") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("a malformed query answers 400 naming each parameter, an unknown user or tenant 404, and outside dev mode neither route exists")
    func refusals() async throws {
        try await withServer { client in
            let refused = try await client.send(.get, "/__dev/tenants/demo/explain?entity=course")
            try expectProblem(refused, .badRequest, "validation_failed")
            let fields = try refused.decode(Problem.self).errors?.map(\.field)
            #expect(fields == ["user", "id"])
            try expectProblem(try await client.send(.get, "/__dev/tenants/demo/explain?user=a&entity=chapter&id=x"), .badRequest, "validation_failed")
            try expectProblem(try await client.send(.get, "/__dev/tenants/demo/explain?user=nobody&entity=course&id=x"), .notFound, "not_found")
            try expectProblem(try await client.send(.get, "/__dev/tenants/demo/changes?limit=0"), .badRequest, "validation_failed")
            try expectProblem(try await client.send(.get, "/__dev/tenants/demo/changes?before=x"), .badRequest, "validation_failed")
            try expectProblem(try await client.send(.get, "/__dev/tenants/nowhere/changes"), .notFound, "tenant_not_found")
        }
    }
}
