import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Reads answer from the local store whenever the server cannot answer well (5xx, 429, too slow,
/// unreachable), say why the data is stale, and give up quickly; answers that mean something
/// (403, 404) keep their meaning.
@Suite(.timeLimit(.minutes(1))) struct ReadRefreshTests {
    static var course: [String: Any] {[
        "id": "course-1", "title": "Álgebra básica", "description": "Ecuaciones", "category": "math", "published": true,
        "teacher_id": "t-1", "lesson_count": 3, "version": 1, "created_at": OfflineFixture.timestamp,
        "updated_at": OfflineFixture.timestamp,
    ]}

    /// A change-feed page holding `courses` (a list read refreshes through a pull).
    static func page(_ courses: [[String: Any]]) -> StubOutcome {
        let changes = courses.map { course -> [String: Any] in
            ["type": "course", "op": "upsert", "id": course["id"] ?? "", "course_id": course["id"] ?? "", "data": course]
        }
        return .response(.json(200, ["changes": changes, "cursor": "c1", "has_more": false, "base_continues": false]))
    }

    /// A harness whose store already holds course-1 from a successful refresh.
    static func harnessWithCachedCourse() async throws -> OfflineHarness {
        let harness = try await OfflineHarness()
        harness.routes.on(.get, "/v1/sync/changes", page([course]))
        harness.routes.on(.get, "/v1/courses/course-1", .response(.json(200, course)))
        #expect(try await harness.engine.refresh(.courses) == nil)
        return harness
    }

    @Test("a 503 with Retry-After leaves the store untouched and the read says the server is unavailable")
    func serverUnavailable() async throws {
        // Given a cached course list
        let harness = try await Self.harnessWithCachedCourse()
        let before = try await harness.courses.list()

        // When the server answers 503 with a Retry-After too long to wait for
        harness.routes.on(.get, "/v1/sync/changes", .response(.problem(503, code: "unavailable", headers: ["Retry-After": "30"])))
        let reason = try await harness.engine.refresh(.courses)

        // Then the refresh reports why, the store still answers, and the read carries the reason
        #expect(reason == .serverUnavailable(status: 503, retryAfter: .seconds(30)))
        let after = try await harness.courses.list()
        #expect(after.value.map(\.id) == ["course-1"])
        #expect(after.fetchedAt == before.fetchedAt)
        #expect(after.staleReason == .serverUnavailable(status: 503, retryAfter: .seconds(30)))
        #expect(before.staleReason == nil)
    }

    @Test("a read refresh retries once at most, honouring a short Retry-After, never the write path's patience")
    func oneShortRetry() async throws {
        let harness = try await Self.harnessWithCachedCourse()
        let requestsBefore = harness.requests(.get, "/v1/sync/changes").count

        // A server that keeps answering 500
        harness.routes.on(.get, "/v1/sync/changes", .response(.problem(500, code: "internal_error")))
        #expect(try await harness.engine.refresh(.courses) == .serverUnavailable(status: 500, retryAfter: nil))
        #expect(harness.requests(.get, "/v1/sync/changes").count - requestsBefore == 2)
        #expect(harness.environment.sleeps == [.milliseconds(250)])

        // A 503 asking for 1 s, then an answer: waited 1 s, then fresh
        harness.routes.on(
            .get, "/v1/sync/changes", .response(.problem(503, code: "unavailable", headers: ["Retry-After": "1"])), Self.page([Self.course]))
        #expect(try await harness.engine.refresh(.courses) == nil)
        #expect(harness.environment.sleeps.last == .seconds(1))
        #expect(try await harness.courses.list().staleReason == nil)
    }

    @Test("429 is the server being unable to answer too, with its Retry-After")
    func rateLimited() async throws {
        let harness = try await Self.harnessWithCachedCourse()
        harness.routes.on(.get, "/v1/courses/course-1", .response(.problem(429, code: "rate_limited", headers: ["Retry-After": "60"])))

        #expect(try await harness.engine.refresh(.course("course-1")) == .serverUnavailable(status: 429, retryAfter: .seconds(60)))
        let cached = try #require(try await harness.courses.course(id: "course-1"))
        #expect(cached.value.title == "Álgebra básica")
        #expect(cached.staleReason == .serverUnavailable(status: 429, retryAfter: .seconds(60)))
    }

    @Test("a refresh that times out, or cannot connect, answers from the store with that reason")
    func timeoutAndOffline() async throws {
        let harness = try await Self.harnessWithCachedCourse()
        harness.routes.on(.get, "/v1/sync/changes", .failure(.timedOut))
        #expect(try await harness.engine.refresh(.courses) == .timedOut)
        #expect(try await harness.courses.list().staleReason == .timedOut)

        harness.routes.on(.get, "/v1/sync/changes", .failure(.cannotConnectToHost))
        #expect(try await harness.engine.refresh(.courses) == .offline)
        #expect(try await harness.courses.list().value.map(\.id) == ["course-1"])
    }

    @Test("the read budget bounds every attempt's timeout and stops retries that would end after it")
    func budget() async throws {
        // Given a read budget of 1 s, a 5 s request timeout and a server asking for a 2 s wait
        let harness = try await Self.harnessWithCachedCourse()
        harness.routes.on(
            .get, "/v1/sync/changes", .response(.problem(503, code: "unavailable", headers: ["Retry-After": "2"])), Self.page([Self.course]))
        var configuration = Fixture.configuration()
        configuration.timeout = .seconds(5)
        configuration.readRefresh = ReadRefreshPolicy(budget: .seconds(1))
        let client = APIClient(
            configuration: configuration, transport: harness.transport,
            tokenStore: await Fixture.store(holding: Fixture.session(expiresAt: .distantFuture)),
            environment: harness.environment.sdk, logger: .silent)
        let engine = SyncEngine(
            client: client, store: harness.store, monitor: harness.monitor, cache: harness.cache,
            environment: harness.environment.sdk)
        let sent = harness.requests(.get, "/v1/sync/changes").count

        // When a read refreshes
        let reason = try await engine.refresh(.courses)

        // Then it does not wait past its budget: one attempt, its timeout within the budget
        #expect(reason == .serverUnavailable(status: 503, retryAfter: .seconds(2)))
        let attempts = harness.requests(.get, "/v1/sync/changes").dropFirst(sent)
        #expect(attempts.count == 1)
        #expect(attempts.allSatisfy { $0.timeout <= .seconds(1) })
        #expect(harness.environment.sleeps.isEmpty)
    }

    @Test("a 404 on a cached course removes it, its lessons and progress from the local view")
    func notFoundRemoves() async throws {
        let harness = try await Self.harnessWithCachedCourse()
        try await harness.seedProgress(OfflineFixture.progress(watched: 10, version: 1))
        harness.routes.on(.get, "/v1/courses/course-1", .response(.problem(404, code: "not_found")))

        await #expect(throws: NetworkError.notFound(code: "not_found")) {
            try await harness.engine.refresh(.course("course-1"))
        }
        #expect(try await harness.courses.course(id: "course-1") == nil)
        #expect(try await harness.courses.list().value.isEmpty)
        #expect(try await harness.progress.lessons(courseID: "course-1").value.isEmpty)
    }

    @Test("a 403 is not served from the cache: the refresh fails and says so")
    func forbiddenThrows() async throws {
        let harness = try await Self.harnessWithCachedCourse()
        harness.routes.on(.get, "/v1/courses/course-1", .response(.problem(403, code: "forbidden")))

        await #expect(throws: NetworkError.forbidden(code: "forbidden")) {
            try await harness.engine.refresh(.course("course-1"))
        }
        #expect(try await harness.courses.course(id: "course-1")?.staleReason == nil)
    }

    @Test("a later successful refresh clears the stale reason")
    func successClears() async throws {
        let harness = try await Self.harnessWithCachedCourse()
        harness.routes.on(.get, "/v1/sync/changes", .response(.problem(502, code: "bad_gateway")))
        #expect(try await harness.engine.refresh(.courses) == .serverUnavailable(status: 502, retryAfter: nil))

        harness.routes.on(.get, "/v1/sync/changes", Self.page([Self.course]))
        #expect(try await harness.engine.refresh(.courses) == nil)
        #expect(try await harness.courses.list().staleReason == nil)
    }

    @Test("while the server is known to be unreachable, reads say offline")
    func monitorOffline() async throws {
        let harness = try await Self.harnessWithCachedCourse()
        harness.monitor.set(false)
        #expect(try await harness.courses.list().staleReason == .offline)
    }
}
