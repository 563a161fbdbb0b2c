import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Timelines and sealed cursors over HTTP: a cursor read from a history that a restore replaced
/// answers `410` (`timeline_changed`), never a page of the new history read from the old position;
/// a cursor is opaque, tamper-proof and spelled one way per position.
@Suite(.timeLimit(.minutes(3))) struct SyncTimelineTests {
    @Test("restore, then more writes than were undone: the old cursor answers 410 timeline_changed, never a page")
    func restoreThenNewWritesExpireTheOldCursor() async throws {
        try await withServer { client in
            // Given a teacher's cursor taken after 3 courses that the restore will undo
            let teacher = try await client.caller(.demoTeacher)
            let snapshot = try await client.saveSnapshot()
            for number in 1...3 { _ = try await client.createCourse(as: teacher, title: "Deshecho \(number)") }
            var state = PulledState()
            try await client.pull(as: teacher, into: &state)
            let cursor = try #require(state.cursor)

            // When the snapshot is restored and 6 new writes carry the log past the cursor
            #expect(try await client.restore(snapshot.id).status == .ok)
            for number in 1...6 { _ = try await client.createCourse(as: teacher, title: "Nuevo \(number)") }

            // Then the cursor is refused as being of another timeline
            let response = try await client.changes(as: teacher, cursor: cursor)
            try expectProblem(response, .gone, "cursor_expired")
            #expect(try response.decode(Problem.self).reason == "timeline_changed")
            // And a base sync holds the new courses and none of the undone ones
            var fresh = PulledState()
            try await client.pull(as: teacher, into: &fresh)
            let titles = fresh.titles("course")
            #expect((1...6).allSatisfy { titles.contains("Nuevo \($0)") })
            #expect(!(1...3).contains { titles.contains("Deshecho \($0)") })
        }
    }

    @Test("a cursor with any one character changed answers 400 invalid_cursor")
    func tamperedCursorIsRefused() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            var state = PulledState()
            try await client.pull(as: student, into: &state)
            let cursor = Array(try #require(state.cursor))
            #expect(try await client.changes(as: student, cursor: String(cursor)).status == .ok)
            for index in stride(from: 0, to: cursor.count, by: max(1, cursor.count / 12)) {
                var tampered = cursor
                tampered[index] = tampered[index] == "A" ? "B" : "A"
                let response = try await client.changes(as: student, cursor: String(tampered))
                try expectProblem(response, .badRequest, "invalid_cursor")
            }
        }
    }

    @Test("a cursor reveals nothing it was made of: no tenant, user, role or sequence in its decoded bytes")
    func cursorIsOpaque() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            var state = PulledState()
            try await client.pull(as: student, into: &state)
            let cursor = try #require(state.cursor)
            let bytes = try #require(Data(base64URLEncoded: cursor))
            let text = String(decoding: bytes, as: UTF8.self)
            for secret in ["demo", student.id, "student", "\"s\""] {
                #expect(!text.contains(secret), "\(secret) readable in the cursor")
            }
        }
    }

    @Test("the same position has one spelling: a pull with nothing new answers the cursor it was given")
    func onePositionOneSpelling() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            var state = PulledState()
            try await client.pull(as: admin, into: &state)
            let cursor = try #require(state.cursor)
            for _ in 1...5 {
                let page = try client.expectOK(ChangePageBody.self, try await client.changes(as: admin, cursor: cursor), "pull")
                #expect(page.cursor == cursor)
            }
        }
    }

    @Test("a tenant deleted and created again under its id starts a new timeline")
    func recreatedTenantStartsANewTimeline() async throws {
        try await withTemporaryDirectory { directory in
            let registry = try TenantRegistry(storage: .directory(directory), maxOpenTenants: 4, now: { Date() })
            let id = try #require(TenantID("again"))
            let first = try await registry.createTenant(id, name: "Again", seed: { _ in }).timeline()
            #expect(try await registry.deleteTenant(id))
            let second = try await registry.createTenant(id, name: "Again", seed: { _ in }).timeline()
            #expect(ChangeTimeline.isWellFormed(second.id))
            #expect(first.id != second.id)
            await registry.close()
        }
    }
}
