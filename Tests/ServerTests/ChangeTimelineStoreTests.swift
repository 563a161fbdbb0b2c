import Foundation
import GRDB
import Testing

@testable import EduGoServerStore

/// Timelines and the feed's bounded window, below HTTP: a tenant database's history has an id that
/// every replacement of its contents changes, and a delta page reads a bounded range of the log.
@Suite(.timeLimit(.minutes(3))) struct ChangeTimelineStoreTests {
    /// A fresh in-memory tenant and an admin of it.
    static func tenant(_ id: String = "timeline-test") async throws -> (TenantDatabase, Identity) {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID(id)), at: nil)
        let user = UserRecord(
            id: "admin-1", email: "ada@example.com", emailKey: "ada@example.com", passwordHash: "", firstName: "Ada",
            lastName: "Lovelace", role: .admin, emailVerified: true, version: 1, createdAt: TestClock.start,
            updatedAt: TestClock.start)
        try await database.writer.write { db in try user.insert(db) }
        return (database, Identity(store: TenantStore(database), user: user, sessionID: "session-1"))
    }

    /// Logs `count` changes of courses no one can read any more (each a tombstone for the feed).
    static func logChanges(_ count: Int, in database: TenantDatabase) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO changes (entity, entity_id, course_id, changed_at)
                    SELECT 'course', 'gone-' || i, 'gone-' || i, 0 FROM n
                    """, arguments: [count])
        }
    }

    @Test("a new tenant database gets a timeline of its own; two tenants made from one template do not share one")
    func newDatabasesGetTheirOwnTimeline() async throws {
        let template = try TenantTemplate()
        try await withTemporaryDirectory { directory in
            var timelines: [ChangeTimeline] = []
            for name in ["one", "two"] {
                let url = directory.appendingPathComponent("\(name).sqlite")
                try template.install(at: url)
                let database = try TenantDatabase.open(tenantID: try #require(TenantID(name)), at: url)
                timelines.append(try await TenantStore(database).timeline())
            }
            #expect(timelines.allSatisfy { ChangeTimeline.isWellFormed($0.id) && $0.startedAt != nil }, "\(timelines)")
            #expect(timelines[0].id != timelines[1].id)
        }
    }

    @Test("restoring a snapshot starts a new timeline, and a cursor of the old one is expired as timeline_changed")
    func restoreStartsANewTimeline() async throws {
        let (database, admin) = try await Self.tenant()
        let store = admin.store
        let horizon = Date.distantPast
        let snapshot = try await store.saveSnapshot(to: nil)
        try await Self.logChanges(5, in: database)
        let before = try await store.timeline()
        let page = try await store.changes(after: nil, visibleTo: admin, limit: 100, horizon: horizon)
        #expect(page.cursor.timeline == before.id)

        try await store.restoreSnapshot(snapshot)

        let after = try await store.timeline()
        #expect(after.id != before.id)
        #expect(ChangeTimeline.isWellFormed(after.id))
        let refusal = await #expect(throws: StoreError.self) {
            try await store.changes(after: page.cursor, visibleTo: admin, limit: 100, horizon: horizon)
        }
        guard case .cursorExpired(.timelineChanged)? = refusal else {
            Issue.record("expected cursorExpired(.timelineChanged), got \(String(describing: refusal))")
            return
        }
        let fresh = try await store.changes(after: nil, visibleTo: admin, limit: 100, horizon: horizon)
        #expect(fresh.cursor.timeline == after.id)
    }

    @Test("a cursor of another timeline is expired as timeline_changed even when the caller's role changed too: the reason that makes a device reconcile its queued writes wins")
    func timelineWinsOverRole() async throws {
        let (_, admin) = try await Self.tenant()
        let store = admin.store
        let snapshot = try await store.saveSnapshot(to: nil)
        var promoted = admin.user
        promoted.role = .teacher
        let teacher = Identity(store: store, user: promoted, sessionID: "session-1")
        // Given a cursor minted while the caller was a teacher, on the timeline before a restore
        let page = try await store.changes(after: nil, visibleTo: teacher, limit: 100, horizon: .distantPast)
        try await store.restoreSnapshot(snapshot)

        // When the caller, an admin again, pulls from it
        let refusal = await #expect(throws: StoreError.self) {
            try await store.changes(after: page.cursor, visibleTo: admin, limit: 100, horizon: .distantPast)
        }
        // Then the answer names the new timeline, not the role
        guard case .cursorExpired(.timelineChanged)? = refusal else {
            Issue.record("expected cursorExpired(.timelineChanged), got \(String(describing: refusal))")
            return
        }
    }

    @Test("an imported database forgets its timeline and gets a new one when the server opens it")
    func importedDatabaseGetsANewTimeline() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("imported.sqlite")
            let tenantID = try #require(TenantID("imported"))
            // Each database closes when nothing holds it any more (it is leased, never closed by hand).
            let exported = try await TenantStore(TenantDatabase.open(tenantID: tenantID, at: url)).timeline()

            try DatabaseFile.forgetTimeline(at: url)
            let database = try TenantDatabase.open(tenantID: tenantID, at: url)

            let imported = try await TenantStore(database).timeline()
            #expect(ChangeTimeline.isWellFormed(imported.id))
            #expect(imported.id != exported.id)
        }
    }

    @Test("a cursor's canonical bytes read back to the same cursor, and nothing else reads as one")
    func cursorPayloadRoundTrips() throws {
        let timeline = String(repeating: "0123456789abcdef", count: 2)
        let cursors = [
            ChangeCursor(tenant: "demo", user: "u-1", role: "student", timeline: timeline, seq: 0),
            ChangeCursor(tenant: "demo", user: "ü-ñ", role: "admin", timeline: timeline, seq: Int64.max),
            ChangeCursor(
                tenant: "t", user: "u", role: "teacher", timeline: timeline, seq: 42,
                base: .init(entity: .lesson, after: "l-9")),
        ]
        for cursor in cursors {
            #expect(ChangeCursor(payload: cursor.payload) == cursor)
            var longer = cursor.payload
            longer.append(0)
            #expect(ChangeCursor(payload: longer) == nil)
            #expect(ChangeCursor(payload: cursor.payload.dropLast()) == nil)
        }
    }

    @Test("a pull from the oldest cursor at 100,000 log rows reads one window of the log, continued by its cursor")
    func oldCursorReadsOneWindow() async throws {
        let (database, admin) = try await Self.tenant()
        let store = admin.store
        let first = try await store.changes(after: nil, visibleTo: admin, limit: 500, horizon: .distantPast)
        try await Self.logChanges(100_000, in: database)

        let page = try await store.changes(after: first.cursor, visibleTo: admin, limit: 5_000, horizon: .distantPast)

        // The page holds at most the window's changes even though its limit allows more, and its
        // cursor stands at the window's end, with more to pull.
        #expect(page.changes.count <= Int(ChangeFeedReader.window))
        #expect(page.cursor.seq == first.cursor.seq + ChangeFeedReader.window)
        #expect(page.hasMore)
        let next = try await store.changes(after: page.cursor, visibleTo: admin, limit: 5_000, horizon: .distantPast)
        #expect(next.cursor.seq == page.cursor.seq + ChangeFeedReader.window)
        #expect(Set(next.changes.map(\.key.id)).isDisjoint(with: page.changes.map(\.key.id)))
    }
}
