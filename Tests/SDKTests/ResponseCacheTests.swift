import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// ``ResponseCache``: policies, TTL and ETag revalidation, per-user keys, invalidation and the
/// stale-while-revalidate stream (a stub server, the virtual clock).
@Suite(.timeLimit(.minutes(2))) struct ResponseCacheTests {
    static let course = Endpoint.Courses.get("course-1")
    static let coursePath = "/v1/courses/course-1"
    static let notModified = APIResponse(statusCode: 304, headers: Fixture.securityHeaders, body: Data())

    static func courseAnswer(_ title: String, etag: String) -> StubOutcome {
        .response(.json(200, ["id": "course-1", "title": title], headers: ["ETag": etag]))
    }

    private func title(_ entry: ResponseCache.Entry) -> String? {
        OfflineFixture.object(entry.response.body)["title"] as? String
    }

    // MARK: cacheFirst and TTL

    @Test("cache first with nothing cached asks the network, then answers from memory")
    func cacheFirstFillsThenServes() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""))

        let first = try await harness.cache.fetch(Self.course, policy: .cacheFirst)
        let second = try await harness.cache.fetch(Self.course, policy: .cacheFirst)

        #expect(first.source == .network)
        #expect(second.source == .memory)
        #expect(title(second) == "Álgebra")
        #expect(harness.requests(.get, Self.coursePath).count == 1)
    }

    @Test("cache first revalidates a stale entry with If-None-Match, and a 304 refreshes it")
    func staleEntryIsRevalidated() async throws {
        // Given an answer cached with an ETag, older than the 300 s time to live
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""), .response(Self.notModified))
        let original = try await harness.cache.fetch(Self.course, policy: .cacheFirst)
        harness.environment.advance(by: .seconds(301))

        // When it is read cache-first
        let revalidated = try await harness.cache.fetch(Self.course, policy: .cacheFirst)

        // Then the server was asked with the ETag, and the 304 made the cached body current again
        let requests = harness.requests(.get, Self.coursePath)
        #expect(requests.count == 2)
        #expect(requests.first?.headers["If-None-Match"] == nil)
        #expect(requests.last?.headers["If-None-Match"] == "\"1\"")
        #expect(revalidated.source == .revalidated)
        #expect(revalidated.response.body == original.response.body)
        #expect(revalidated.storedAt == harness.environment.now)
        #expect(revalidated.storedAt > original.storedAt)
        // And it is fresh again, in memory and on disk
        #expect(try await harness.cache.fetch(Self.course, policy: .cacheFirst).source == .memory)
        let fromDisk = ResponseCache(client: harness.client, store: harness.store, now: harness.environment.sdk.now)
        #expect(try await fromDisk.cached(fromDisk.cacheKey(Self.course))?.storedAt == harness.environment.now)
    }

    @Test("an entry younger than the time to live is not revalidated")
    func freshEntryIsNotRevalidated() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""))
        _ = try await harness.cache.fetch(Self.course, policy: .cacheFirst)
        harness.environment.advance(by: .seconds(299))

        let entry = try await harness.cache.fetch(Self.course, policy: .cacheFirst)

        #expect(entry.source == .memory)
        #expect(harness.requests(.get, Self.coursePath).count == 1)
    }

    @Test("a changed answer to a revalidation replaces the cached body")
    func changedAnswerReplaces() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""), Self.courseAnswer("Geometría", etag: "\"2\""))
        _ = try await harness.cache.fetch(Self.course, policy: .cacheFirst)
        harness.environment.advance(by: .seconds(301))

        let entry = try await harness.cache.fetch(Self.course, policy: .cacheFirst)

        #expect(entry.source == .network)
        #expect(title(entry) == "Geometría")
        let cached = try await harness.cache.cached(harness.cache.cacheKey(Self.course))
        #expect(cached?.response.etag == "\"2\"")
    }

    // MARK: networkFirst and networkOnly

    @Test("network first falls back to the cached answer, of any age, when offline")
    func networkFirstFallsBackOffline() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""), .offline)
        let online = try await harness.cache.fetch(Self.course, policy: .networkFirst)
        harness.environment.advance(by: .seconds(7 * 24 * 3600))

        let offline = try await harness.cache.fetch(Self.course, policy: .networkFirst)

        #expect(online.source == .network)
        #expect(offline.source == .memory)
        #expect(offline.response.body == online.response.body)
        #expect(offline.storedAt == online.storedAt)
        #expect(harness.requests(.get, Self.coursePath).count == 2)
    }

    @Test("network first with nothing cached reports the lost connection")
    func networkFirstWithoutCacheThrows() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, .offline)

        await #expect(throws: NetworkError.noConnection) {
            try await harness.cache.fetch(Self.course, policy: .networkFirst)
        }
    }

    @Test("network first does not hide a server error behind the cache")
    func networkFirstSurfacesServerErrors() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""), .status(503))
        _ = try await harness.cache.fetch(Self.course, policy: .networkFirst)

        await #expect(throws: NetworkError.serverError(status: 503, code: nil)) {
            try await harness.cache.fetch(Self.course, policy: .networkFirst)
        }
    }

    @Test("network only asks the network every time, and still stores the answer")
    func networkOnlyAlwaysAsks() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""), Self.courseAnswer("Geometría", etag: "\"2\""))

        let first = try await harness.cache.fetch(Self.course, policy: .networkOnly)
        let second = try await harness.cache.fetch(Self.course, policy: .networkOnly)

        #expect(first.source == .network)
        #expect(second.source == .network)
        #expect(harness.requests(.get, Self.coursePath).count == 2)
        #expect(title(try #require(try await harness.cache.cached(harness.cache.cacheKey(Self.course)))) == "Geometría")
    }

    // MARK: Keys

    @Test("cache keys include the tenant, the user, the path and the query")
    func keysNameTenantAndUser() async throws {
        let ada = try await OfflineHarness(store: try OfflineStore.inMemory(tenantID: "demo", userID: "ada"))
        let eva = try await OfflineHarness(store: try OfflineStore.inMemory(tenantID: "demo", userID: "eva"))

        #expect(ada.cache.cacheKey(Self.course) == "demo|ada|/v1/courses/course-1")
        #expect(ada.cache.cacheKey(.Courses.list(page: 2, limit: 10)) == "demo|ada|/v1/courses?limit=10&page=2")
        #expect(eva.cache.cacheKey(Self.course) != ada.cache.cacheKey(Self.course))
    }

    @Test("the same query in another order is the same key; a value holding & or = cannot pass for two items")
    func keysNormaliseTheQuery() async throws {
        let harness = try await OfflineHarness(store: try OfflineStore.inMemory(tenantID: "demo", userID: "ada"))
        let one = Endpoint(.get, ["courses"], query: [URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "category", value: "math")])
        let other = Endpoint(.get, ["courses"], query: [URLQueryItem(name: "category", value: "math"), URLQueryItem(name: "page", value: "2")])
        let smuggled = Endpoint(.get, ["courses"], query: [URLQueryItem(name: "category", value: "math&page=2")])

        #expect(harness.cache.cacheKey(one) == harness.cache.cacheKey(other))
        #expect(harness.cache.cacheKey(smuggled) != harness.cache.cacheKey(one))
        #expect(harness.cache.cacheKey(.Courses.list(page: 1)) != harness.cache.cacheKey(.Courses.list(page: 2)))
    }

    @Test("two users never share cached answers")
    func usersDoNotShare() async throws {
        // Given Ada's answer cached
        let ada = try await OfflineHarness(store: try OfflineStore.inMemory(tenantID: "demo", userID: "ada"))
        ada.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""))
        _ = try await ada.cache.fetch(Self.course, policy: .networkOnly)

        // When Eva reads the same endpoint offline
        let eva = try await OfflineHarness(store: try OfflineStore.inMemory(tenantID: "demo", userID: "eva"))
        eva.routes.on(.get, Self.coursePath, .offline)

        // Then she gets nothing of Ada's
        await #expect(throws: NetworkError.noConnection) { try await eva.cache.fetch(Self.course, policy: .networkFirst) }
        #expect(try await eva.cache.cached(ada.cache.cacheKey(Self.course)) == nil)
    }

    // MARK: Invalidation

    @Test("a course mutation forgets every course and enrolled-course answer, in memory and on disk")
    func invalidateCourses() async throws {
        // Given course, course list, enrolled courses and profile answers cached
        let harness = try await OfflineHarness()
        let ok = StubOutcome.response(.json(200, ["ok": true]))
        let endpoints: [Endpoint] = [.Courses.list(), Self.course, .Users.myCourses(), .Users.me]
        for endpoint in endpoints {
            harness.routes.on(.get, endpoint.encodedPath, ok)
            _ = try await harness.cache.fetch(endpoint, policy: .networkOnly)
        }

        // When progress of a course is written
        await harness.cache.invalidate(afterMutationOf: "/v1/courses/course-1/progress")

        // Then the course answers are gone from memory and disk, and the profile is kept
        let fromDisk = ResponseCache(client: harness.client, store: harness.store)
        for cache in [harness.cache, fromDisk] {
            #expect(try await cache.cached(cache.cacheKey(.Courses.list())) == nil)
            #expect(try await cache.cached(cache.cacheKey(Self.course)) == nil)
            #expect(try await cache.cached(cache.cacheKey(.Users.myCourses())) == nil)
            #expect(try await cache.cached(cache.cacheKey(.Users.me)) != nil)
        }
        #expect(try await harness.cache.cached(harness.cache.cacheKey(.Users.me))?.source == .memory)
    }

    @Test("a profile mutation forgets the user answers and keeps the course answers")
    func invalidateProfile() async throws {
        let harness = try await OfflineHarness()
        let ok = StubOutcome.response(.json(200, ["ok": true]))
        let endpoints: [Endpoint] = [Self.course, .Users.me, .Auth.me]
        for endpoint in endpoints {
            harness.routes.on(.get, endpoint.encodedPath, ok)
            _ = try await harness.cache.fetch(endpoint, policy: .networkOnly)
        }

        await harness.cache.invalidate(afterMutationOf: "/v1/users/me")

        #expect(try await harness.cache.cached(harness.cache.cacheKey(.Users.me)) == nil)
        #expect(try await harness.cache.cached(harness.cache.cacheKey(.Auth.me)) == nil)
        #expect(try await harness.cache.cached(harness.cache.cacheKey(Self.course)) != nil)
    }

    @Test("a synced write invalidates the cached answers of its collection")
    func syncedWriteInvalidates() async throws {
        // Given the course's progress answer cached and a progress write queued
        let harness = try await OfflineHarness()
        let progressAnswer: [String: Any] = [
            "course_id": "course-1", "user_id": "user-1", "lessons": [], "completed_lessons": 0, "total_lessons": 1, "percent": 0,
        ]
        harness.routes.on(.get, OfflineHarness.progressPath, .response(.json(200, progressAnswer)))
        harness.routes.on(.put, OfflineHarness.progressPath, .response(.json(200, OfflineFixture.progress(watched: 30, version: 1))))
        _ = try await harness.cache.fetch(.Courses.progress("course-1"), policy: .networkOnly)
        try await harness.progress.record(courseID: "course-1", lessonID: "lesson-1", watchedSeconds: 30)

        // When it syncs
        await harness.engine.syncNow()

        // Then the cached answer is gone
        #expect(try await harness.cache.cached(harness.cache.cacheKey(.Courses.progress("course-1"))) == nil)
    }

    // MARK: Layers and streaming

    @Test("an answer read from disk is kept in memory for the next read")
    func diskPromotesToMemory() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""))
        _ = try await harness.cache.fetch(Self.course, policy: .networkOnly)
        let cache = ResponseCache(client: harness.client, store: harness.store, now: harness.environment.sdk.now)

        let first = try await cache.fetch(Self.course, policy: .cacheFirst)
        let second = try await cache.fetch(Self.course, policy: .cacheFirst)

        #expect(first.source == .disk)
        #expect(second.source == .memory)
        #expect(harness.requests(.get, Self.coursePath).count == 1)
    }

    @Test("memory holds at most the configured number of answers; the rest are read from disk")
    func memoryLimitFallsBackToDisk() async throws {
        let harness = try await OfflineHarness(limits: ResponseCache.Limits(maxEntries: 1))
        for id in ["a", "b"] {
            harness.routes.on(.get, "/v1/courses/\(id)", .response(.json(200, ["id": id])))
            _ = try await harness.cache.fetch(.Courses.get(id), policy: .networkOnly)
        }

        #expect(try await harness.cache.cached(harness.cache.cacheKey(.Courses.get("a")))?.source == .disk)
        #expect(try await harness.cache.cached(harness.cache.cacheKey(.Courses.get("a")))?.source == .memory)
        #expect(try await harness.cache.cached(harness.cache.cacheKey(.Courses.get("b")))?.source == .disk)
    }

    @Test("the persistent cache keeps at most its entry bound, dropping the least recently used answer")
    func diskEvictsLeastRecentlyUsed() async throws {
        let harness = try await OfflineHarness(limits: ResponseCache.Limits(maxEntries: 1, maxDiskEntries: 2))
        for id in ["a", "b", "c"] { harness.routes.on(.get, "/v1/courses/\(id)", .response(.json(200, ["id": id]))) }
        _ = try await harness.cache.fetch(.Courses.get("a"), policy: .networkOnly)
        harness.environment.advance(by: .seconds(1))
        _ = try await harness.cache.fetch(.Courses.get("b"), policy: .networkOnly)
        harness.environment.advance(by: .seconds(1))
        // a is read from disk (memory holds one answer: b), which makes b the least recently used
        #expect(try await harness.cache.cached(harness.cache.cacheKey(.Courses.get("a")))?.source == .disk)
        harness.environment.advance(by: .seconds(1))

        _ = try await harness.cache.fetch(.Courses.get("c"), policy: .networkOnly)

        let disk = ResponseCache(client: harness.client, store: harness.store, now: harness.environment.sdk.now)
        #expect(try await disk.cached(disk.cacheKey(.Courses.get("a"))) != nil)
        #expect(try await disk.cached(disk.cacheKey(.Courses.get("b"))) == nil)
        #expect(try await disk.cached(disk.cacheKey(.Courses.get("c"))) != nil)
        #expect(try await harness.store.responseCacheUsage().entries == 2)
    }

    @Test("the persistent cache stays within its byte bound, and an answer larger than the bound stays in memory only")
    func diskStaysWithinBytes() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, "/v1/courses/probe", .response(.json(200, ["id": "x"])))
        _ = try await harness.cache.fetch(.Courses.get("probe"), policy: .networkOnly)
        let one = try await harness.store.responseCacheUsage().bytes
        #expect(one > 0)

        let bounded = try await OfflineHarness(limits: ResponseCache.Limits(maxDiskBytes: one * 5 / 2))
        for id in ["a", "b", "c", "d"] {
            bounded.routes.on(.get, "/v1/courses/\(id)", .response(.json(200, ["id": "x"])))
            _ = try await bounded.cache.fetch(.Courses.get(id), policy: .networkOnly)
            bounded.environment.advance(by: .seconds(1))
        }
        let usage = try await bounded.store.responseCacheUsage()
        #expect(usage.bytes <= one * 5 / 2)
        #expect(usage.entries == 2)

        let tiny = try await OfflineHarness(limits: ResponseCache.Limits(maxDiskBytes: one - 1))
        tiny.routes.on(.get, "/v1/courses/probe", .response(.json(200, ["id": "x"])))
        _ = try await tiny.cache.fetch(.Courses.get("probe"), policy: .networkOnly)
        #expect(try await tiny.store.responseCacheUsage().entries == 0)
        #expect(try await tiny.cache.cached(tiny.cache.cacheKey(.Courses.get("probe")))?.source == .memory)
    }

    @Test("stream yields the cached answer at once, then the network's")
    func streamCachedThenNetwork() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""), Self.courseAnswer("Geometría", etag: "\"2\""))
        _ = try await harness.cache.fetch(Self.course, policy: .networkOnly)

        var entries: [ResponseCache.Entry] = []
        for try await entry in harness.cache.stream(Self.course) { entries.append(entry) }

        #expect(entries.map(\.source) == [.memory, .network])
        #expect(entries.map { title($0) } == ["Álgebra", "Geometría"])
    }

    @Test("stream with nothing cached yields only the network's answer")
    func streamWithoutCache() async throws {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, Self.coursePath, Self.courseAnswer("Álgebra", etag: "\"1\""))

        var sources: [ResponseCache.Source] = []
        for try await entry in harness.cache.stream(Self.course) { sources.append(entry.source) }

        #expect(sources == [.network])
    }
}
