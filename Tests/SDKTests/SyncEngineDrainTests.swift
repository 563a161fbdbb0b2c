import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// How a drain settles each outbox item by the server's answer (a stub transport, the virtual clock).
@Suite(.timeLimit(.minutes(2))) struct SyncEngineDrainTests {
    static let course = OfflineHarness.courseID
    static let progressPath = OfflineHarness.progressPath
    static let noContent = APIResponse(statusCode: 204, headers: Fixture.securityHeaders, body: Data())

    /// A harness whose store knows lesson-1's progress at version 1 (watched 10 s).
    private func makeHarness(parallelResources: Int = 8, policy: ConflictPolicy = ConflictPolicy()) async throws -> OfflineHarness {
        let harness = try await OfflineHarness(policy: policy, parallelResources: parallelResources)
        try await harness.seedProgress(OfflineFixture.progress(watched: 10, version: 1))
        return harness
    }

    @Test("a 2xx removes the item and stores the server's answer in the local cache")
    func successIsApplied() async throws {
        // Given a progress write based on version 1
        let harness = try await makeHarness()
        let answer = OfflineFixture.progress(watched: 60, version: 2)
        harness.routes.on(.put, Self.progressPath, .response(.json(200, answer)))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)

        // When the outbox drains
        let report = await harness.engine.syncNow()

        // Then the item is gone and the local cache holds exactly what the server answered
        #expect(report.sent == 1)
        #expect(report.remaining == 0)
        #expect(try await harness.outbox.pending().isEmpty)
        let entity = try #require(try await harness.entity(.progress, "course-1/lesson-1"))
        #expect(entity.version == 2)
        #expect(OfflineFixture.object(entity.json)["watched_seconds"] as? Int == 60)
        #expect(entity.fetchedAt == harness.environment.now)
    }

    @Test("the request carries the body, the base version and the item's Idempotency-Key")
    func requestShape() async throws {
        let harness = try await makeHarness()
        harness.routes.on(.put, Self.progressPath, .response(.json(200, OfflineFixture.progress(watched: 60, version: 2))))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)
        let item = try #require(try await harness.outbox.pending().first)

        await harness.engine.syncNow()

        let request = try #require(harness.requests(.put, Self.progressPath).first)
        #expect(request.headers["Idempotency-Key"] == item.idempotencyKey)
        let body = try #require(request.jsonBody)
        #expect(body["lesson_id"] as? String == "lesson-1")
        #expect(body["watched_seconds"] as? Int == 60)
        #expect(body["version"] as? Int == 1)
    }

    @Test("every replay of an item sends the Idempotency-Key it got at enqueue time")
    func replaysKeepTheKey() async throws {
        // Given a server that fails twice before it answers
        let harness = try await makeHarness()
        harness.routes.on(
            .put, Self.progressPath, .failure(.networkConnectionLost), .status(503),
            .response(.json(200, OfflineFixture.progress(watched: 60, version: 2))))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)
        let key = try #require(try await harness.outbox.pending().first?.idempotencyKey)

        // When it is drained until it goes through
        for _ in 1...3 {
            harness.monitor.set(true)
            harness.environment.advance(by: .seconds(600))
            await harness.engine.syncNow()
        }

        // Then all three attempts carried the same key
        let keys = harness.requests(.put, Self.progressPath).map { $0.headers["Idempotency-Key"] }
        #expect(keys == [key, key, key])
        #expect(try await harness.outbox.pending().isEmpty)
    }

    @Test("later items of a resource are sent on the version the earlier item produced")
    func laterItemsAreRebased() async throws {
        // Given a write that failed once, and a second write to the lesson queued behind it
        let harness = try await makeHarness()
        harness.routes.on(
            .put, Self.progressPath, .status(503), .response(.json(200, OfflineFixture.progress(watched: 60, version: 2))),
            .response(.json(200, OfflineFixture.progress(watched: 90, version: 3))))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)
        await harness.engine.syncNow()
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)
        #expect(try await harness.outbox.pending().map(\.baseVersion) == [1, 1])

        // When both are drained
        harness.environment.advance(by: .seconds(600))
        let report = await harness.engine.syncNow()

        // Then the second was sent on version 2, the version the first one produced
        #expect(report.sent == 2)
        let bodies = harness.requests(.put, Self.progressPath).compactMap(\.jsonBody)
        #expect(bodies.map { $0["version"] as? Int } == [1, 1, 2])
        #expect(bodies.last?["watched_seconds"] as? Int == 90)
        #expect(try await harness.entity(.progress, "course-1/lesson-1")?.version == 3)
    }

    @Test("a write made while the drain is sending an earlier one is sent too, not lost")
    func writeDuringDrainIsNotLost() async throws {
        // Given a write that failed once and a second one queued behind it
        let harness = try await makeHarness()
        let calls = Locked(0)
        harness.routes.on(.put, Self.progressPath) { request in
            let call = calls.withLock { value -> Int in value += 1; return value }
            switch call {
            case 1:
                return .status503
            case 2:
                // While the first item is on the wire, the learner completes the lesson.
                try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", completed: true)
                return .json(200, OfflineFixture.progress(watched: 60, version: 2))
            default:
                return .json(200, OfflineFixture.progress(watched: 90, completed: true, version: 3))
            }
        }
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)
        await harness.engine.syncNow()
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 90)

        // When the outbox drains
        harness.environment.advance(by: .seconds(600))
        await harness.engine.syncNow()
        await harness.engine.syncNow()

        // Then the completion reached the server
        let bodies = harness.requests(.put, Self.progressPath).compactMap(\.jsonBody)
        #expect(bodies.contains { $0["completed"] as? Bool == true })
        #expect(try await harness.outbox.pending().isEmpty)
        let local = try await harness.progress.lessons(courseID: Self.course).value.first
        #expect(local?.completed == true)
    }

    @Test("a refused write becomes a dead letter with the server's code, status and problem", arguments: [400, 403, 404, 422])
    func refusedWriteIsDeadLettered(status: Int) async throws {
        // Given an enrollment the server refuses
        let harness = try await makeHarness()
        let refusal = APIResponse.problem(status, code: "refused_\(status)")
        harness.routes.on(.post, "/v1/courses/course-2/enrollment", .response(refusal))
        try await harness.enrollment.enroll(courseID: "course-2")
        let item = try #require(try await harness.outbox.pending().first)

        // When it is sent
        let report = await harness.engine.syncNow()

        // Then it left the outbox for the dead letters, with the server's reason and problem
        #expect(report.deadLettered == 1)
        #expect(try await harness.outbox.pending().isEmpty)
        let letter = try #require(try await harness.outbox.deadLetters().first)
        #expect(letter.reason == "refused_\(status)")
        #expect(letter.status == status)
        #expect(letter.problem == refusal.body)
        #expect(letter.id == item.id)
        #expect(letter.idempotencyKey == item.idempotencyKey)
        #expect(letter.resource == .enrollment(course: "course-2"))
        #expect(letter.failedAt == harness.environment.now)
    }

    @Test("a retryable answer keeps the item queued with its next attempt in the future", arguments: [408, 429, 500, 503])
    func retryableAnswerKeepsItem(status: Int) async throws {
        let harness = try await makeHarness()
        harness.routes.on(.put, Self.progressPath, .status(status))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)

        let report = await harness.engine.syncNow()

        #expect(report.sent == 0)
        #expect(report.remaining == 1)
        #expect(try await harness.outbox.deadLetters().isEmpty)
        let item = try #require(try await harness.outbox.pending().first)
        #expect(item.attempts == 1)
        #expect(item.lastError == "HTTP \(status)")
        // The first retry waits 2 s (exponential backoff).
        #expect(item.nextAttemptAt == harness.environment.now + .seconds(2))
    }

    @Test("Retry-After decides when the write is tried again")
    func retryAfterIsHonoured() async throws {
        let harness = try await makeHarness()
        harness.routes.on(.put, Self.progressPath, .status(429, headers: ["Retry-After": "120"]))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)

        await harness.engine.syncNow()

        let item = try #require(try await harness.outbox.pending().first)
        #expect(item.nextAttemptAt == harness.environment.now + .seconds(120))
    }

    @Test("a background drain waits for the item's retry time, then sends it")
    func backgroundDrainWaitsForRetryTime() async throws {
        // Given a write told to come back in 120 s
        let harness = try await makeHarness()
        harness.routes.on(
            .put, Self.progressPath, .status(503, headers: ["Retry-After": "120"]),
            .response(.json(200, OfflineFixture.progress(watched: 60, version: 2))))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)
        _ = await harness.engine.drain()

        // When the background drains before and after that time
        harness.environment.advance(by: .seconds(119))
        let early = await harness.engine.drain()
        harness.environment.advance(by: .seconds(1))
        let due = await harness.engine.drain()

        // Then it is sent only once due
        #expect(early.sent == 0)
        #expect(due.sent == 1)
        #expect(harness.requests(.put, Self.progressPath).count == 2)
    }

    @Test("without an answer the item stays queued and the drain stops")
    func transportFailureStopsTheDrain() async throws {
        // Given writes to two resources, sent one resource at a time
        let harness = try await makeHarness(parallelResources: 1)
        harness.routes.on(.put, Self.progressPath, .offline)
        harness.routes.on(.post, "/v1/courses/course-2/enrollment", .offline)
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)
        try await harness.enrollment.enroll(courseID: "course-2")

        // When the first request finds no connection
        let report = await harness.engine.syncNow()

        // Then nothing else is tried, both writes wait, and the monitor knows it is offline
        #expect(harness.transport.requests.count == 1)
        #expect(report.remaining == 2)
        #expect(try await harness.outbox.deadLetters().isEmpty)
        #expect(harness.engine.status.lastError == "offline")
        #expect(harness.engine.status.error == .offline)
        #expect(!harness.monitor.isConnected)
    }

    @Test("an item unsent for more than 24 hours becomes a stale dead letter, never dropped")
    func staleItemIsDeadLettered() async throws {
        // Given a write queued a day and a minute ago
        let harness = try await makeHarness()
        harness.routes.on(.put, Self.progressPath, .response(.json(200, OfflineFixture.progress(watched: 60, version: 2))))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)
        let item = try #require(try await harness.outbox.pending().first)
        harness.environment.advance(by: .seconds(24 * 3600 + 60))

        // When the outbox drains
        let report = await harness.engine.syncNow()

        // Then it is not sent but kept as a dead letter with its body (the pull after it sends no write)
        #expect(report.deadLettered == 1)
        #expect(harness.transport.requests.allSatisfy { $0.url.path == "/v1/sync/changes" })
        let letter = try #require(try await harness.outbox.deadLetters().first)
        #expect(letter.reason == "stale")
        #expect(letter.status == nil)
        #expect(letter.body == item.body)
        #expect(letter.idempotencyKey == item.idempotencyKey)
    }

    @Test("an item just under 24 hours old is still sent")
    func almostStaleItemIsSent() async throws {
        let harness = try await makeHarness()
        harness.routes.on(.put, Self.progressPath, .response(.json(200, OfflineFixture.progress(watched: 60, version: 2))))
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)
        harness.environment.advance(by: .seconds(24 * 3600 - 60))

        let report = await harness.engine.syncNow()

        #expect(report.sent == 1)
        #expect(try await harness.outbox.deadLetters().isEmpty)
    }

    @Test("a failing first item blocks the later items of its resource but not other resources")
    func perResourceOrder() async throws {
        // Given leaving and re-joining a course (two items of one resource) and a progress write
        let harness = try await makeHarness()
        harness.routes.on(.delete, "/v1/courses/course-2/enrollment", .status(503), .response(Self.noContent))
        harness.routes.on(.post, "/v1/courses/course-2/enrollment", .response(.json(200, OfflineFixture.enrollment(courseID: "course-2"))))
        harness.routes.on(.put, Self.progressPath, .response(.json(200, OfflineFixture.progress(watched: 60, version: 2))))
        try await harness.enrollment.unenroll(courseID: "course-2")
        try await harness.enrollment.enroll(courseID: "course-2")
        try await harness.progress.record(courseID: Self.course, lessonID: "lesson-1", watchedSeconds: 60)

        // When the leave fails
        let first = await harness.engine.syncNow()

        // Then the re-join waited behind it, the progress went through, and the leave was tried once
        #expect(first.sent == 1)
        #expect(harness.requests(.delete, "/v1/courses/course-2/enrollment").count == 1)
        #expect(harness.requests(.post, "/v1/courses/course-2/enrollment").isEmpty)
        #expect(harness.requests(.put, Self.progressPath).count == 1)
        #expect(try await harness.outbox.pending().map(\.operation) == [.delete, .create])

        // And once the leave goes through, the re-join follows it
        harness.environment.advance(by: .seconds(600))
        let second = await harness.engine.syncNow()
        #expect(second.sent == 2)
        let enrollmentCalls = harness.transport.requests.filter { $0.url.path == "/v1/courses/course-2/enrollment" }.map(\.method)
        #expect(enrollmentCalls == [.delete, .delete, .post])
        #expect(try await harness.enrollment.enrolledCourseIDs().value == ["course-2"])
    }

    @Test("a background drain never sends a later item while the first one waits for its retry")
    func backgroundDrainKeepsOrder() async throws {
        let harness = try await makeHarness()
        harness.routes.on(.delete, "/v1/courses/course-2/enrollment", .status(503, headers: ["Retry-After": "300"]))
        harness.routes.on(.post, "/v1/courses/course-2/enrollment", .response(.json(200, OfflineFixture.enrollment(courseID: "course-2"))))
        try await harness.enrollment.unenroll(courseID: "course-2")
        try await harness.enrollment.enroll(courseID: "course-2")
        _ = await harness.engine.drain()

        harness.environment.advance(by: .seconds(10))
        _ = await harness.engine.drain()

        #expect(harness.requests(.post, "/v1/courses/course-2/enrollment").isEmpty)
        #expect(try await harness.outbox.pending().count == 2)
    }
}

extension APIResponse {
    /// `503` with the security headers and an empty JSON object.
    static let status503 = APIResponse.json(503, [:] as [String: String])
}
