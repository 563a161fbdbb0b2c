import Foundation
import GRDB
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// A store written before the outbox became one table (`v5-queued-writes`) opens with every
/// queued write, dead letter and conflict it held, and replays them exactly once.
///
/// `Fixtures/v4-store.sqlite` was written by the SDK at schema v4 (commit 8be03f3), through its
/// own write paths with the test harness: a profile and lesson-1's progress cached; an enrollment
/// in `gone` refused with 404 (a dead letter); a profile update met a 409 under the manual policy
/// (a conflict); lesson-1's progress sent (201, left the outbox); lesson-2's progress answered 503
/// with `Retry-After` (queued, attempted, due later) and written again after that; an enrollment
/// in `course-2` queued; an enrollment in `course-3` queued and cancelled (so the outbox's id
/// sequence is past its last row).
@Suite(.timeLimit(.minutes(2))) struct QueuedWriteMigrationTests {
    /// The rows of the three tables of schema v4, read straight from the file.
    private struct LegacyRows {
        var outbox: [Row]
        var deadLetters: [Row]
        var conflicts: [Row]
        var sequence: Int64
    }

    /// Copies the fixture to where ``OfflineStore/open(directory:tenantID:userID:)`` finds the
    /// harness user's store, and reads its v4 rows.
    private func installFixture(in directory: URL) throws -> LegacyRows {
        let fixture = try #require(Bundle.module.url(forResource: "v4-store", withExtension: "sqlite", subdirectory: "Fixtures"))
        let folder = directory.appendingPathComponent(Fixture.tenantID, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(OfflineHarness.userID).sqlite")
        try FileManager.default.copyItem(at: fixture, to: file)
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        return try queue.read { db in
            #expect(try OfflineStoreMigrations.migrator.appliedMigrations(db).last == "v4-seal")
            return LegacyRows(
                outbox: try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id"),
                deadLetters: try Row.fetchAll(db, sql: "SELECT * FROM dead_letters ORDER BY id"),
                conflicts: try Row.fetchAll(db, sql: "SELECT * FROM conflicts ORDER BY id"),
                sequence: try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'outbox'") ?? 0)
        }
    }

    private func open(_ directory: URL) throws -> OfflineStore {
        try OfflineStore.open(directory: directory, tenantID: Fixture.tenantID, userID: OfflineHarness.userID)
    }

    @Test("a store written before the one-table outbox keeps every queued write, dead letter and conflict, in place")
    func migrationKeepsEveryRow() async throws {
        try await withTemporaryDirectory { directory in
            // Given the v4 store: three queued writes, a dead letter and a conflict
            let legacy = try installFixture(in: directory)
            try #require(legacy.outbox.count == 3)
            try #require(legacy.deadLetters.count == 1)
            try #require(legacy.conflicts.count == 1)

            // When the SDK opens it (the migrator runs on open)
            let store = try open(directory)
            defer { try? store.writer.close() }
            let outbox = Outbox(store: store)

            // Then every queued write is pending, in order, with every field it had
            #expect(try await outbox.pending() == legacy.outbox.map(Self.item))
            // And the dead letter and the conflict are listed with everything they had
            #expect(try await outbox.deadLetters() == legacy.deadLetters.map(Self.deadLetter))
            #expect(try await outbox.conflicts() == legacy.conflicts.map(Self.conflict))
            let counts = try await store.outboxCounts()
            #expect(counts.pending == 3 && counts.deadLetters == 1 && counts.conflicts == 1)
            // And a dead letter or a conflict counts as attempted: nothing is merged into it
            let states = try await store.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT id, state, attempts FROM queued_writes ORDER BY id")
                    .map { row -> String in "\(row["id"] as Int64) \(row["state"] as String) \(row["attempts"] as Int)" }
            }
            let attempts = legacy.outbox.map { "\($0["id"] as Int64) queued \($0["attempts"] as Int)" }
                + legacy.deadLetters.map { "\($0["id"] as Int64) dead_letter 1" }
                + legacy.conflicts.map { "\($0["id"] as Int64) conflict 1" }
            #expect(Set(states) == Set(attempts))
            // And the three old tables are gone
            let tables = try await store.writer.read { db in
                try ["outbox", "dead_letters", "conflicts"].filter { try db.tableExists($0) }
            }
            #expect(tables.isEmpty)
            // And a new write gets an id past every id the old outbox gave out
            let next = try #require(try await outbox.enqueue(OfflineFixture.enroll("course-4")))
            #expect(next.id > legacy.sequence)
            #expect(legacy.sequence > (legacy.outbox + legacy.deadLetters + legacy.conflicts).map { $0["id"] as Int64 }.max() ?? 0)
        }
    }

    @Test("the migrated writes replay exactly once, each with its own key")
    func migratedWritesReplayOnce() async throws {
        try await withTemporaryDirectory { directory in
            // Given the migrated v4 store, with the dead letter retried and the conflict kept as mine
            let legacy = try installFixture(in: directory)
            let harness = try await OfflineHarness(store: try open(directory))
            defer { try? harness.store.writer.close() }
            harness.routes.on(.post, "/v1/courses/gone/enrollment", .response(.json(201, OfflineFixture.enrollment(courseID: "gone"))))
            harness.routes.on(.post, "/v1/courses/course-2/enrollment", .response(.json(201, OfflineFixture.enrollment(courseID: "course-2"))))
            harness.routes.on(.patch, "/v1/users/me", .response(.json(200, OfflineFixture.user(firstName: "Ana", lastName: "B", version: 3))))
            harness.routes.on(.put, OfflineHarness.progressPath) { request in
                let lesson = request.jsonBody?["lesson_id"] as? String ?? "lesson-2"
                return .json(200, OfflineFixture.progress(lessonID: lesson, watched: 45, version: 2))
            }
            let letter = try #require(try await harness.outbox.deadLetters().first)
            let conflict = try #require(try await harness.outbox.conflicts().first)
            try await harness.outbox.retryDeadLetter(id: letter.id)
            try await harness.outbox.resolveConflict(id: conflict.id, choice: .keepMine)

            // When the app syncs twice
            let report = await harness.engine.syncNow()
            _ = await harness.engine.syncNow()

            // Then each of the five writes was sent once, with the key it was given before the migration
            let keys = (legacy.outbox + legacy.deadLetters + legacy.conflicts).map { $0["idempotency_key"] as String }
            let sent = harness.transport.requests.compactMap { $0.headers["Idempotency-Key"] }
            #expect(sent.sorted() == keys.sorted())
            #expect(report.sent == 5)
            #expect(try await harness.outbox.pending().isEmpty)
            #expect(try await harness.outbox.deadLetters().isEmpty)
            #expect(try await harness.outbox.conflicts().isEmpty)
        }
    }

    // The public values a v4 row stood for, read column by column from the old tables.

    private static func item(_ row: Row) -> OutboxItem {
        OutboxItem(
            id: row["id"], resource: ResourceKey(row["resource"] as String) ?? .profile, operation: operation(row),
            method: row["method"], path: row["path"], body: row["body"], baseVersion: row["base_version"],
            baseJson: row["base_json"], idempotencyKey: row["idempotency_key"], createdAt: row["created_at"],
            attempts: row["attempts"], nextAttemptAt: row["next_attempt_at"], lastError: row["last_error"])
    }

    private static func deadLetter(_ row: Row) -> DeadLetter {
        DeadLetter(
            id: row["id"], resource: ResourceKey(row["resource"] as String) ?? .profile, operation: operation(row),
            method: row["method"], path: row["path"], body: row["body"], baseVersion: row["base_version"],
            baseJson: row["base_json"], idempotencyKey: row["idempotency_key"], createdAt: row["created_at"],
            failedAt: row["failed_at"], reason: row["reason"], status: row["status"], problem: row["problem"])
    }

    private static func conflict(_ row: Row) -> SyncConflict {
        SyncConflict(
            id: row["id"], resource: ResourceKey(row["resource"] as String) ?? .profile, operation: operation(row),
            method: row["method"], path: row["path"], body: row["body"], baseVersion: row["base_version"],
            baseJson: row["base_json"], idempotencyKey: row["idempotency_key"], createdAt: row["created_at"],
            serverVersion: row["server_version"], serverJson: row["server_json"], detectedAt: row["detected_at"])
    }

    private static func operation(_ row: Row) -> OutboxItem.Operation {
        OutboxItem.Operation(rawValue: row["operation"]) ?? .update
    }
}
