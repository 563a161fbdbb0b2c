import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// Lost responses, cache revalidation, rejected writes and sign-out, against a live server.
@Suite(.serialized, .timeLimit(.minutes(3))) struct OfflineScenarioTests {
    @Test("a write whose response was lost is replayed with its key, answered as a replay, and applied once")
    func lostResponseIsNotDuplicated() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let transport = LosingTransport(losing: 1) { $0.method == .put }
                let client = EduGoClient(
                    configuration: APIConfiguration(baseURL: url, tenantID: "demo", retryPolicy: .none, readRefresh: patientReads),
                    dataDirectory: root, transport: transport, environment: fastEnvironment)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                try await session.engine.refresh(.enrollments)
                let courseID = try #require(try await session.enrollment.enrolledCourseIDs().value.sorted().first)
                try await session.engine.refresh(.lessons(courseID: courseID))
                try await session.engine.refresh(.progress(courseID: courseID))
                let lesson = try #require(try await session.courses.lessons(courseID: courseID).value.last)
                let before = try await serverView(url).execute(endpoint: .Courses.progress(courseID), as: CourseProgress.self)
                let previous = before.lessons.first { $0.lessonId == lesson.id }?.version ?? 0

                // When the first attempt's answer is lost after the server committed it
                try await session.progress.record(courseID: courseID, lessonID: lesson.id, watchedSeconds: 420)
                let first = await session.engine.syncNow()
                #expect(first.sent == 0)
                #expect(transport.lost.withLock { $0.count } == 1)
                #expect(try await session.engine.outbox.pending().count == 1)

                // Then the replay (same Idempotency-Key) gets the stored answer, not a second write
                client.monitor.set(true)
                #expect(try await eventually {
                    await session.engine.syncNow()
                    return try await session.engine.outbox.pending().isEmpty
                })
                // The server committed the first attempt, and the replay carried the same key, so
                // it answered from its record (Idempotent-Replayed) instead of applying it again
                let puts = transport.matching.withLock { $0 }
                try #require(puts.count == 2)
                let firstAttempt = try #require(puts.first)
                let replay = try #require(puts.last)
                #expect(firstAttempt.response == nil)
                let key = try #require(firstAttempt.request.headers["Idempotency-Key"])
                #expect(replay.request.headers["Idempotency-Key"] == key)
                #expect(replay.response?.statusCode == 200)
                #expect(replay.response?.header("Idempotent-Replayed") == "true")
                #expect(try await session.engine.outbox.deadLetters().isEmpty)
                // And the lesson's version moved by exactly one
                let after = try await serverView(url).execute(endpoint: .Courses.progress(courseID), as: CourseProgress.self)
                let record = try #require(after.lessons.first { $0.lessonId == lesson.id })
                #expect(record.watchedSeconds == 420)
                #expect(record.version == previous + 1)
            }
        }
    }

    @Test("offline reads come from the cache and online revalidation answers 304 and refreshes the entry")
    func cacheRevalidation() async throws {
        try await withTemporaryDirectory { root in
            // The server keeps its data across the restart, so the session stays valid.
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let url = server.baseURL
            let client = makeEduGoClient(server: url, directory: root.appendingPathComponent("client"))
            let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            let page: Page<Course> = try await session.cache.fetchJSON(.Courses.list(limit: 1), policy: .networkOnly)
            let courseID = try #require(page.items.first?.id)

            let fresh = try await session.cache.fetch(.Courses.get(courseID), policy: .networkFirst)
            #expect(fresh.source == .network)
            #expect(fresh.response.etag != nil)

            await server.stop()
            let offline = try await session.cache.fetch(.Courses.get(courseID), policy: .networkFirst)
            #expect(offline.source == .memory)
            #expect(offline.response.body == fresh.response.body)

            try await server.restart()
            let revalidated = try await session.cache.fetch(.Courses.get(courseID), policy: .networkFirst)
            #expect(revalidated.source == .revalidated)
            #expect(revalidated.storedAt > fresh.storedAt)
            #expect(revalidated.response.body == fresh.response.body)
            // A cache-first read now is served from memory without a request.
            #expect(try await session.cache.fetch(.Courses.get(courseID), policy: .cacheFirst).source == .memory)
            await server.shutdown()
        }
    }

    @Test("a write the server rejects lands in dead letters with its reason and shows on the status")
    func rejectedWriteIsDeadLettered() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let admin = try await serverView(url, email: Demo.adminEmail, password: Demo.adminPassword)
                let created: Course = try await admin.execute(
                    endpoint: .Courses.create,
                    body: ["title": "Curso efímero", "category": "science", "published": true] as [String: AnyCodableValue])
                let client = makeEduGoClient(server: url, directory: root)
                let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)

                // Given an enrollment queued while the course still existed
                try await session.enrollment.enroll(courseID: created.id)
                // When an admin deletes the course before the write arrives
                try await admin.perform(endpoint: .Courses.delete(created.id))
                let report = await session.engine.syncNow()

                // Then the write is a dead letter with the server's reason, counted on the status
                #expect(report.deadLettered == 1)
                let letters = try await session.engine.outbox.deadLetters()
                #expect(letters.count == 1)
                #expect(letters.first?.reason == "not_found")
                #expect(letters.first?.status == 404)
                #expect(session.engine.status.deadLetterCount == 1)
                #expect(session.engine.status.pendingCount == 0)

                // And it can be discarded
                try await session.engine.outbox.discardDeadLetter(id: try #require(letters.first?.id))
                #expect(try await session.engine.outbox.deadLetters().isEmpty)
            }
        }
    }

    @Test("sign-out with pending writes is refused, with discard it wipes, and the next user sees nothing")
    func signOutWipesTheUsersData() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let url = server.baseURL
            let client = makeEduGoClient(server: url, directory: root)
            let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            try await session.engine.refresh(.courses)
            try await session.preferences.update { $0.theme = .dark }
            let firstFile = try #require(session.store.fileURL)

            await server.stop()
            try await session.profile.update(firstName: "Offline")
            await #expect(throws: SignOutError.pendingChanges(count: 1)) { try await client.signOut() }
            #expect(FileManager.default.fileExists(atPath: firstFile.path))

            try await client.signOut(discardingPendingChanges: true)
            #expect(!FileManager.default.fileExists(atPath: firstFile.path))
            #expect(await client.api.session.currentTokens() == nil)

            try await server.restart()
            let next = try await client.signIn(email: "student2@demo.edugo.dev", password: Demo.studentPassword)
            #expect(next.store.fileURL != firstFile)
            #expect(try await next.courses.search("").value.isEmpty)
            #expect(try await next.engine.outbox.pending().isEmpty)
            #expect(try await next.preferences.current().theme == .system)
            #expect(try await next.profile.me()?.value.email == "student2@demo.edugo.dev")
            await server.shutdown()
        }
    }
}

/// A JSON value for ad-hoc request bodies in tests.
enum AnyCodableValue: Encodable, Sendable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral {
    case string(String), bool(Bool), int(Int)

    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int) { self = .int(value) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        }
    }
}
