import Foundation
import GRDB
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// What the local database keeps when the app is closed and opened again: the store is closed,
/// reopened from its file, and the migrator runs again on open.
@Suite(.timeLimit(.minutes(2))) struct OfflineStoreDurabilityTests {
    private func open(_ directory: URL) throws -> OfflineStore {
        try OfflineStore.open(directory: directory, tenantID: Fixture.tenantID, userID: OfflineHarness.userID)
    }

    /// Closes `store` (as quitting the app does) and opens its file again.
    private func reopen(_ store: OfflineStore, in directory: URL) throws -> OfflineStore {
        try store.writer.close()
        return try open(directory)
    }

    @Test("the store of a user lives in its own file under the tenant's folder")
    func fileLayout() async throws {
        try await withTemporaryDirectory { directory in
            let store = try open(directory)
            let other = try OfflineStore.open(directory: directory, tenantID: Fixture.tenantID, userID: "user-2")

            #expect(store.fileURL?.path == directory.appendingPathComponent("demo/user-1.sqlite").path)
            #expect(other.fileURL != store.fileURL)
            try store.writer.close()
            try other.writer.close()
        }
    }

    @Test("queued writes survive closing and reopening the store, with their keys and bases")
    func outboxSurvives() async throws {
        try await withTemporaryDirectory { directory in
            // Given writes queued while offline
            let store = try open(directory)
            let outbox = Outbox(store: store)
            try await outbox.enqueue(OfflineFixture.progressWrite(
                ["watched_seconds": 90], baseVersion: 2, baseJson: OfflineFixture.progress(watched: 30, version: 2)))
            try await outbox.enqueue(OfflineFixture.enroll("course-2"))
            let before = try await outbox.pending()

            // When the app is closed and opened again
            let reopened = try reopen(store, in: directory)

            // Then the same items wait, in the same order, with the same keys
            let after = try await Outbox(store: reopened).pending()
            #expect(after == before)
            #expect(after.count == 2)
            try reopened.writer.close()
        }
    }

    @Test("dead letters and parked conflicts survive closing and reopening the store")
    func deadLettersAndConflictsSurvive() async throws {
        try await withTemporaryDirectory { directory in
            // Given a refused write and a parked conflict
            let harness = try await OfflineHarness(
                store: try open(directory), policy: ConflictPolicy([.profile: .manual]))
            harness.routes.on(.post, "/v1/courses/gone/enrollment", .response(.problem(404, code: "not_found")))
            harness.routes.on(
                .patch, "/v1/users/me", OfflineFixture.versionConflict(current: OfflineFixture.user(lastName: "B", version: 2), version: 2))
            try await harness.seedProfile(OfflineFixture.user())
            try await harness.enrollment.enroll(courseID: "gone")
            try await harness.profile.update(firstName: "Ana")
            let report = await harness.engine.syncNow()
            #expect(report.deadLettered == 1)
            #expect(report.conflictsParked == 1)
            let letters = try await harness.outbox.deadLetters()
            let conflicts = try await harness.outbox.conflicts()

            // When the app is closed and opened again
            let reopened = try reopen(harness.store, in: directory)

            // Then both lists are as they were
            let outbox = Outbox(store: reopened)
            #expect(try await outbox.deadLetters() == letters)
            #expect(try await outbox.conflicts() == conflicts)
            #expect(letters.first?.reason == "not_found")
            #expect(conflicts.first?.serverVersion == 2)
            try reopened.writer.close()
        }
    }

    @Test("cached entities and HTTP cache rows survive closing and reopening the store")
    func cacheSurvives() async throws {
        try await withTemporaryDirectory { directory in
            // Given a cached GET answer and a cached progress record
            let harness = try await OfflineHarness(store: try open(directory))
            harness.routes.on(.get, "/v1/courses/course-1", .response(.json(200, ["id": "course-1"], headers: ["ETag": "\"7\""])))
            let fetched = try await harness.cache.fetch(.Courses.get("course-1"), policy: .networkOnly)
            try await harness.seedProgress(OfflineFixture.progress(watched: 45, version: 3))
            let entity = try await harness.entity(.progress, "course-1/lesson-1")

            // When the app is closed and opened again
            let reopened = try reopen(harness.store, in: directory)

            // Then the HTTP cache answers from disk and the entity is still there
            let cache = ResponseCache(client: harness.client, store: reopened, now: harness.environment.sdk.now)
            let cached = try #require(try await cache.cached(cache.cacheKey(.Courses.get("course-1"))))
            #expect(cached.source == .disk)
            #expect(cached.response.body == fetched.response.body)
            #expect(cached.response.etag == "\"7\"")
            #expect(cached.storedAt == fetched.storedAt)
            let kept = try await reopened.writer.read { db in try LocalView.entity(db, kind: .progress, id: "course-1/lesson-1") }
            #expect(kept == entity)
            #expect(kept?.version == 3)
            try reopened.writer.close()
        }
    }

    @Test("settings survive closing and reopening the store")
    func settingsSurvive() async throws {
        try await withTemporaryDirectory { directory in
            let store = try open(directory)
            try await Preferences(store: store).update { preferences in
                preferences.theme = .dark
                preferences.language = "en"
                preferences.biometricsEnabled = true
            }
            let before = try await Preferences(store: store).current()

            let reopened = try reopen(store, in: directory)

            #expect(try await Preferences(store: reopened).current() == before)
            #expect(before.theme == .dark)
            try reopened.writer.close()
        }
    }

    @Test("a migration keeps the outbox and the cache")
    func migrationKeepsData() async throws {
        try await withTemporaryDirectory { directory in
            // Given a store with a queued write and a cached answer
            let harness = try await OfflineHarness(store: try open(directory))
            harness.routes.on(.get, "/v1/courses", .response(.json(200, ["items": [], "page": 1, "limit": 20, "total": 0])))
            _ = try await harness.cache.fetch(.Courses.list(), policy: .networkOnly)
            try await harness.outbox.enqueue(OfflineFixture.enroll("course-2"))
            let pending = try await harness.outbox.pending()

            // When it is reopened (the migrator runs on open) and migrated once more
            let reopened = try reopen(harness.store, in: directory)
            try OfflineStoreMigrations.migrator.migrate(reopened.writer)

            // Then every migration is applied and nothing was dropped
            let applied = try await reopened.writer.read { db in try OfflineStoreMigrations.migrator.appliedMigrations(db) }
            #expect(applied == OfflineStoreMigrations.migrator.migrations)
            #expect(applied.contains("v2-http-cache-bounds"))
            #expect(try await Outbox(store: reopened).pending() == pending)
            let cache = ResponseCache(client: harness.client, store: reopened)
            #expect(try await cache.cached(cache.cacheKey(.Courses.list())) != nil)
            try reopened.writer.close()
        }
    }

    @Test("the cache-bounds migration counts the bytes of answers cached before it and marks them used when stored")
    func cacheBoundsMigrationFillsOldRows() async throws {
        let queue = try DatabaseQueue()
        try OfflineStoreMigrations.migrator.migrate(queue, upTo: "v1")
        let storedAt = Date(timeIntervalSince1970: 1_800_000_000)
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO http_cache (key, status, headers, body, etag, stored_at) VALUES ('k', 200, ?, ?, NULL, ?)",
                arguments: [Data("{}".utf8), Data("0123456789".utf8), storedAt])
        }

        try OfflineStoreMigrations.migrator.migrate(queue)

        let row = try queue.read { db in try Row.fetchOne(db, sql: "SELECT bytes, used_at FROM http_cache WHERE key = 'k'") }
        #expect(row?["bytes"] as Int? == 12)
        #expect(row?["used_at"] as Date? == storedAt)
    }
}
