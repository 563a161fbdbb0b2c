import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The tenant's change sequence: every committed change of a synced entity advances it, in the
/// transaction that makes the change.
@Suite(.timeLimit(.minutes(3))) struct ChangeLogTests {
    /// The sequence the feed has reached for `caller` (its cursor once nothing more waits).
    static func head(_ client: some TestClientProtocol, _ deps: Dependencies, as caller: Caller) async throws -> Int64 {
        var state = PulledState()
        try await client.pull(as: caller, into: &state)
        let cursor = try #require(state.cursor.flatMap(deps.cursors.open))
        return cursor.seq
    }

    /// Every write the API offers on a synced entity, each run once.
    enum Write: String, CaseIterable, Sendable {
        case createCourse, updateCourse, deleteCourse, createLesson, updateLesson, deleteLesson
        case enroll, unenroll, recordProgress, updateProgress, updateOwnProfile, changeRole, createUser, deleteUser
        case register, verifyEmail
    }

    @Test("each write to a synced entity advances the tenant's change sequence", arguments: Write.allCases)
    func everyWriteAdvances(write: Write) async throws {
        try await withServer(exposing: .testing()) { client, deps in
            let admin = try await client.caller(.demoAdmin)
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let course = try await client.createCourse(as: teacher, title: "Curso de prueba", published: true)
            let lesson = try await client.createLesson(in: course.id, as: teacher)
            let newcomer = Credentials.newcomer()
            if write == .verifyEmail {
                #expect(try await client.register(newcomer).status == .accepted)
            }
            let before = try await Self.head(client, deps, as: admin)

            let response: TestResponse
            switch write {
            case .createCourse:
                _ = try await client.createCourse(as: teacher)
                response = try await client.get("/v1/courses", as: teacher)
            case .updateCourse:
                let current = try client.expectOK(CourseBody.self, try await client.get("/v1/courses/\(course.id)", as: teacher), "read")
                response = try await client.send(
                    .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "Otro", "version": current.version])
            case .deleteCourse:
                response = try await client.delete("/v1/courses/\(course.id)", as: teacher)
            case .createLesson:
                _ = try await client.createLesson(in: course.id, as: teacher, title: "Otra")
                response = try await client.get("/v1/courses", as: teacher)
            case .updateLesson:
                response = try await client.send(
                    .patch, "/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher,
                    body: ["title": "Otra", "version": lesson.version])
            case .deleteLesson:
                response = try await client.delete("/v1/courses/\(course.id)/lessons/\(lesson.id)", as: teacher)
            case .enroll:
                response = try await client.enroll(in: course.id, as: student)
            case .unenroll:
                _ = try await client.enroll(in: course.id, as: student)
                let enrolled = try await Self.head(client, deps, as: admin)
                response = try await client.delete("/v1/courses/\(course.id)/enrollment", as: student)
                #expect(try await Self.head(client, deps, as: admin) > enrolled)
            case .recordProgress:
                _ = try await client.enroll(in: course.id, as: student)
                response = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "completed": true])
            case .updateProgress:
                _ = try await client.enroll(in: course.id, as: student)
                let first = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 30])
                let recorded = try client.expectOK(LessonProgressBody.self, first, "first progress")
                let between = try await Self.head(client, deps, as: admin)
                response = try await client.putProgress(
                    in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 60, "version": recorded.version])
                #expect(try await Self.head(client, deps, as: admin) > between)
            case .updateOwnProfile:
                response = try await client.send(
                    .patch, "/v1/users/me", as: student, body: ["first_name": "Otra", "version": student.user.version])
            case .changeRole:
                let target = try await client.user(email: SeededAccount.demoStudent(3).email, as: admin)
                response = try await client.send(
                    .patch, "/v1/users/\(target.id)", as: admin, body: ["role": "teacher", "version": target.version])
            case .createUser:
                response = try await client.send(
                    .post, "/v1/users", as: admin,
                    body: ["email": "nuevo@example.com", "password": "Correct-Horse-9", "first_name": "N", "last_name": "U", "role": "student"])
            case .deleteUser:
                let target = try await client.user(email: SeededAccount.demoStudent(4).email, as: admin)
                response = try await client.delete("/v1/users/\(target.id)", as: admin)
            case .register:
                response = try await client.register(newcomer)
            case .verifyEmail:
                let token = try await client.mailedToken("verify_email", to: newcomer.email, tenant: "demo")
                response = try await client.verifyEmail(token: token, tenant: "demo")
            }

            #expect((200..<300).contains(response.status.code), "\(write): \(response.status) \(response.text)")
            let after = try await Self.head(client, deps, as: admin)
            #expect(after > before, "\(write) left the change sequence at \(before)")
        }
    }

    @Test("every table is either synced, with triggers that log its inserts, updates and deletes, or listed as holding no synced state")
    func everyTableIsClassified() async throws {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("schema")), at: nil)
        let (tables, triggers) = try await database.writer.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"),
                try Row.fetchAll(db, sql: "SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
                    .map { (table: $0["tbl_name"] as String, sql: $0["sql"] as String) }
            )
        }
        for table in tables {
            let synced = ChangeLog.syncedTables[table] != nil
            #expect(synced || ChangeLog.unsyncedTables.contains(table), "\(table) is neither synced nor listed as unsynced")
            guard synced else { continue }
            for event in ["INSERT", "UPDATE", "DELETE"] {
                #expect(
                    triggers.contains { $0.table == table && $0.sql.contains("AFTER \(event)") && $0.sql.contains("INSERT INTO changes") },
                    "\(table) has no trigger logging \(event)")
            }
        }
    }

    @Test("a write that fails leaves no entry in the log (the entry is part of its transaction)")
    func failedWriteLogsNothing() async throws {
        try await withServer(exposing: .testing()) { client, deps in
            let admin = try await client.caller(.demoAdmin)
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let before = try await Self.head(client, deps, as: admin)

            let stale = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "Otro", "version": course.version + 5])

            #expect(stale.status == .conflict)
            #expect(try await Self.head(client, deps, as: admin) == before)
        }
    }
}
