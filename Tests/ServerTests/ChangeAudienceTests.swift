import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The live stream decides in memory who hears of a change; the feed decides in SQL. Both must
/// give the same answer for every shape of logged change.
@Suite struct ChangeAudienceTests {
    @Test("ChangeAudience.hears agrees with its SQL condition for every entity, owner and draft, for students, teachers and admins")
    func swiftAgreesWithSQL() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE changes (seq INTEGER PRIMARY KEY, entity TEXT, user_id TEXT, draft_of TEXT)")
            var seq: Int64 = 0
            for entity in FeedEntity.all.map(\.name) + ["unknown"] {
                for owner in [nil, "me", "other"] as [String?] {
                    for draft in [nil, "me", "other"] as [String?] {
                        seq += 1
                        try db.execute(
                            sql: "INSERT INTO changes VALUES (?, ?, ?, ?)", arguments: [seq, entity, owner, draft])
                    }
                }
            }
        }
        let rows = try queue.read { db in try LoggedChange.fetchAll(db, sql: "SELECT * FROM changes ORDER BY seq") }
        #expect(rows.count == (FeedEntity.all.count + 1) * 9)
        for audience in [ChangeAudience(userID: "me", isAdmin: false), ChangeAudience(userID: "me", isAdmin: true)] {
            let sql = audience.sql
            let heardBySQL = try queue.read { db in
                try Int64.fetchAll(db, sql: "SELECT seq FROM changes WHERE \(sql.condition) ORDER BY seq", arguments: sql.arguments)
            }
            let heardInMemory = rows.filter(audience.hears).map(\.seq)
            #expect(heardInMemory == heardBySQL, "admin: \(audience.isAdmin)")
            #expect(!heardBySQL.isEmpty && heardBySQL.count < rows.count)
        }
    }

    /// A stream of `account`'s on the hub (as `GET /v1/sync/events` reserves one), to see what it would be told.
    func stream(of account: Credentials, on deps: Dependencies, session: String) async throws -> ChangeHub.Subscription {
        let store = try await deps.tenants.store(for: try #require(TenantID(account.tenant)))
        let user = try #require(try await store.user(emailKey: UserRecord.emailKey(account.email)))
        return try deps.changeHub.reserve(
            Identity(store: store, user: user, sessionID: session), expiresAt: .distantFuture, now: Date())
    }

    @Test("a draft handed to another teacher (still a draft) is heard by its old and new teacher and admins, never by a student: feed and stream")
    func draftReassignmentReachesOnlyItsTeachers() async throws {
        try await withServer(exposing: .testing()) { client, deps in
            // Given teacher1's draft, and four callers caught up on the feed with a stream open each
            let teacher2Account = Credentials(email: "teacher2@demo.edugo.dev", password: "Demo-Teacher-2026", tenant: "demo")
            let accounts = [Credentials.demoStudent, .demoTeacher, teacher2Account, .demoAdmin]
            var callers: [Caller] = []
            var states: [PulledState] = []
            var streams: [ChangeHub.Subscription] = []
            for (index, account) in accounts.enumerated() {
                let caller = try await client.caller(account)
                var state = PulledState()
                try await client.pull(as: caller, into: &state)
                callers.append(caller)
                states.append(state)
                streams.append(try await stream(of: account, on: deps, session: "audience-\(index)"))
            }
            let (teacher1, teacher2, admin) = (callers[1], callers[2], callers[3])
            let draft = try await client.course(titled: SeededCourse.draft, as: teacher1)
            let lessonKeys = Set(try await client.lessons(of: draft.id, as: teacher1).map { "lesson/\($0.id)" })
            try #require(!lessonKeys.isEmpty)
            for subscription in streams { _ = deps.changeHub.take(subscription.id) }

            // When an admin hands the draft to teacher2, leaving it a draft
            let moved = try await client.send(
                .patch, "/v1/courses/\(draft.id)", as: admin, body: ["teacher_id": teacher2.id, "version": draft.version])
            #expect(moved.status == .ok)

            // Then the student's feed and stream hear nothing of it
            var heard: [ChangePageBody] = []
            for index in 0..<4 {
                heard.append(try client.expectOK(
                    ChangePageBody.self, try await client.changes(as: callers[index], cursor: states[index].cursor), "pull"))
            }
            #expect(heard[0].changes.isEmpty, "the student heard \(heard[0].changes.map(\.key))")
            #expect(deps.changeHub.take(streams[0].id).newest == nil, "the student's stream was told")
            // And teacher1 hears of losing the draft and its lessons (tombstones)
            let lost = heard[1].changes.filter { $0.op == "delete" }.map(\.key)
            #expect(Set(lost) == lessonKeys.union(["course/\(draft.id)"]))
            // And teacher2 of getting them, and the admin of the course
            let got = heard[2].changes.filter { $0.op != "delete" }.map(\.key)
            #expect(Set(got) == lessonKeys.union(["course/\(draft.id)"]))
            #expect(heard[3].changes.contains { $0.key == "course/\(draft.id)" && $0.op != "delete" })
            for index in 1..<4 {
                #expect(deps.changeHub.take(streams[index].id).newest != nil, "\(accounts[index].email)'s stream was not told")
            }
        }
    }
}
