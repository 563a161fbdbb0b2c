import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// `Idempotency-Key` on POST, PUT and PATCH: the same key with the same body replays the stored
/// answer; with another body it answers 422; keys belong to one user of one tenant and last 24 h.
@Suite(.timeLimit(.minutes(3))) struct IdempotencyTests {
    static var courseBody: [String: Any] { ["title": "Geometría", "category": "mathematics", "published": true] }

    @Test("a replayed course creation creates nothing new and answers byte-identically with Idempotent-Replayed")
    func replayedCreate() async throws {
        try await withServer { client in
            // Given a teacher who created a course under a key
            let teacher = try await client.caller(.demoTeacher)
            let admin = try await client.caller(.demoAdmin)
            let first = try await client.send(
                .post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey("create-geo-1"))
            #expect(first.status == .created)
            #expect(first.headers[.idempotentReplayed] == nil)
            let totalAfterFirst = try await client.get("/v1/courses", as: admin).decode(PageBody<CourseBody>.self).total

            // When the same request is sent again with the same key
            let replay = try await client.send(
                .post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey("create-geo-1"))

            // Then the stored answer comes back and no second course exists
            #expect(replay.status == .created)
            #expect(replay.headers[.idempotentReplayed] == "true")
            #expect(replay.text == first.text)
            #expect(replay.headers[.location] == first.headers[.location])
            #expect(replay.headers[.eTag] == first.headers[.eTag])
            #expect(replay.headers[.contentType] == first.headers[.contentType])
            let totalAfterReplay = try await client.get("/v1/courses", as: admin).decode(PageBody<CourseBody>.self).total
            #expect(totalAfterFirst == 9)
            #expect(totalAfterReplay == totalAfterFirst)
        }
    }

    @Test("the dev request log tells a write its handler ran for from an answer replayed, by key")
    func requestLogTellsReplays() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let start = try await client.send(.get, "/__dev/requests").decode(DevConsoleDataTests.Tail.self).latestSequence
            // Given a creation under a key, its replay, and a creation without a key
            for _ in 0..<2 {
                _ = try await client.send(.post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey("log-geo-1"))
            }
            _ = try await client.send(.post, "/v1/courses", as: teacher, body: Self.courseBody)

            // When the log is read
            let tail = try await client.send(.get, "/__dev/requests?after=\(start)").decode(DevConsoleDataTests.Tail.self)

            // Then, oldest first: the handler ran, then the answer was replayed; no key, nothing said
            let creations = tail.items.filter { $0.method == "POST" && $0.route == "/v1/courses" }.reversed()
            #expect(creations.map(\.status) == [201, 201, 201])
            #expect(creations.map(\.idempotencyKey) == ["log-geo-1", "log-geo-1", nil])
            #expect(creations.map(\.replayed) == [false, true, nil])

            // And a key past the 255 characters a key may have is refused, and kept cut to 255
            let long = String(repeating: "k", count: 4_000)
            let refused = try await client.send(.post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey(long))
            #expect(refused.status == .badRequest)
            let after = try await client.send(.get, "/__dev/requests?after=\(tail.latestSequence)").decode(DevConsoleDataTests.Tail.self)
            let kept = try #require(after.items.first { $0.method == "POST" && $0.route == "/v1/courses" })
            #expect(kept.idempotencyKey == String(repeating: "k", count: 255))
        }
    }

    @Test("a fingerprint is the lowercase hex SHA-256 of the method, the path and the canonical body")
    func fingerprintIsHexSHA256() {
        let fingerprint = IdempotencyCoordinator.fingerprint(method: "PUT", path: "/v1/x", body: Data(#"{ "b" : 2, "a" : 1 }"#.utf8))
        let expected = SHA256.hash(data: Data("PUT /v1/x\n{\"a\":1,\"b\":2}".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(fingerprint == expected)
        #expect([0x00, 0x0f, 0xa0, 0xff].hexDigits == "000fa0ff")
    }

    @Test("member order and whitespace do not make a different body")
    func canonicalBody() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let first = try await client.send(
                .post, "/v1/courses", bearer: teacher.token, json: #"{"title":"Geo","category":"arts"}"#,
                headers: .idempotencyKey("k"))

            let replay = try await client.send(
                .post, "/v1/courses", bearer: teacher.token, json: #"{ "category" : "arts", "title" : "Geo" }"#,
                headers: .idempotencyKey("k"))

            #expect(replay.headers[.idempotentReplayed] == "true")
            #expect(replay.text == first.text)
        }
    }

    @Test("reusing a key with a different body answers 422 idempotency_key_reused and creates nothing")
    func reusedKey() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            _ = try await client.send(
                .post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey("create-geo-1"))

            let response = try await client.send(
                .post, "/v1/courses", as: teacher, body: ["title": "Trigonometría", "category": "mathematics"],
                headers: .idempotencyKey("create-geo-1"))

            try expectProblem(response, .unprocessableContent, "idempotency_key_reused")
            #expect(try await client.allCourses(as: teacher).contains { $0.title == "Trigonometría" } == false)
        }
    }

    @Test("reusing a key on another path answers 422")
    func reusedKeyOnAnotherPath() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            _ = try await client.send(
                .post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey("shared"))

            let response = try await client.send(
                .post, "/v1/courses/\(course.id)/lessons", as: teacher, body: Self.courseBody,
                headers: .idempotencyKey("shared"))

            try expectProblem(response, .unprocessableContent, "idempotency_key_reused")
        }
    }

    @Test("another user sending the same key and body gets a course of their own")
    func keysArePerUser() async throws {
        try await withServer { client in
            let teacher1 = try await client.caller(.demoTeacher)
            let teacher2 = try await client.caller(SeededAccount.demoTeacher2)
            let first = try await client.send(
                .post, "/v1/courses", as: teacher1, body: Self.courseBody, headers: .idempotencyKey("same-key"))

            let second = try await client.send(
                .post, "/v1/courses", as: teacher2, body: Self.courseBody, headers: .idempotencyKey("same-key"))

            #expect(second.status == .created)
            #expect(second.headers[.idempotentReplayed] == nil)
            let mine = try first.decode(CourseBody.self)
            let theirs = try second.decode(CourseBody.self)
            #expect(theirs.id != mine.id)
            #expect(theirs.teacherId == teacher2.id)
            #expect(mine.teacherId == teacher1.id)
        }
    }

    @Test("the same key in another tenant is a different key")
    func keysArePerTenant() async throws {
        try await withServer { client in
            let demoAdmin = try await client.caller(.demoAdmin)
            let acmeAdmin = try await client.caller(.acmeAdmin)
            let demo = try await client.send(
                .post, "/v1/courses", as: demoAdmin, body: Self.courseBody, headers: .idempotencyKey("tenant-key"))

            let acme = try await client.send(
                .post, "/v1/courses", as: acmeAdmin, body: Self.courseBody, headers: .idempotencyKey("tenant-key"))

            #expect(acme.status == .created)
            #expect(acme.headers[.idempotentReplayed] == nil)
            #expect(try acme.decode(CourseBody.self).id != (try demo.decode(CourseBody.self)).id)
            #expect(try await client.allCourses(as: acmeAdmin).count == 3)
        }
    }

    @Test("a refused request does not use up its key: fixing the body under the same key succeeds")
    func failureReleasesKey() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let refused = try await client.send(
                .post, "/v1/courses", as: teacher, body: ["title": "Geo"], headers: .idempotencyKey("retry-me"))
            try expectProblem(refused, .badRequest, "validation_failed")

            let fixed = try await client.send(
                .post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey("retry-me"))

            #expect(fixed.status == .created)
            #expect(fixed.headers[.idempotentReplayed] == nil)
        }
    }

    @Test("a conflicting PATCH releases its key so the re-based retry can reuse it")
    func conflictReleasesKey() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            _ = try await client.send(.patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "A", "version": 1])
            let stale = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "B"],
                headers: [.ifMatch: "\"1\"", .idempotencyKey: "patch-b"])
            try expectProblem(stale, .preconditionFailed, "version_conflict")

            let rebased = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "B"],
                headers: [.ifMatch: "\"2\"", .idempotencyKey: "patch-b"])

            #expect(rebased.status == .ok)
            #expect(try rebased.decode(CourseBody.self).title == "B")
        }
    }

    @Test("a replayed PATCH answers the stored result without bumping the version again")
    func replayedPatch() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.matematicas, as: teacher)
            let body: [String: Any] = ["description": "Nueva", "version": 1]
            let first = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: body, headers: .idempotencyKey("patch-1"))

            let replay = try await client.send(
                .patch, "/v1/courses/\(course.id)", as: teacher, body: body, headers: .idempotencyKey("patch-1"))

            #expect(replay.status == .ok)
            #expect(replay.headers[.idempotentReplayed] == "true")
            #expect(replay.text == first.text)
            #expect(try await client.get("/v1/courses/\(course.id)", as: teacher).decode(CourseBody.self).version == 2)
        }
    }

    @Test("a replayed progress PUT answers the stored record instead of 428")
    func replayedProgress() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            let body: [String: Any] = ["lesson_id": lesson.id, "completed": true]
            let first = try await client.putProgress(in: course.id, as: student, body, headers: .idempotencyKey("p-1"))

            let replay = try await client.putProgress(in: course.id, as: student, body, headers: .idempotencyKey("p-1"))

            #expect(first.status == .ok)
            #expect(replay.status == .ok)
            #expect(replay.headers[.idempotentReplayed] == "true")
            #expect(replay.text == first.text)
        }
    }

    @Test("a replayed enrollment answers the stored 201 rather than 200")
    func replayedEnrollment() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.english, as: student)
            let path = "/v1/courses/\(course.id)/enrollment"
            let first = try await client.send(.post, path, bearer: student.token, headers: .idempotencyKey("enroll-1"))

            let replay = try await client.send(.post, path, bearer: student.token, headers: .idempotencyKey("enroll-1"))

            #expect(first.status == .created)
            #expect(replay.status == .created)
            #expect(replay.headers[.idempotentReplayed] == "true")
            #expect(replay.text == first.text)
        }
    }

    @Test("a replayed user creation creates one user only")
    func replayedUserCreation() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let body: [String: Any] = [
                "email": "nuevo@demo.edugo.dev", "password": "Password-123", "first_name": "Nuevo", "last_name": "Usuario",
                "role": "student",
            ]
            let first = try await client.send(.post, "/v1/users", as: admin, body: body, headers: .idempotencyKey("u-1"))

            let replay = try await client.send(.post, "/v1/users", as: admin, body: body, headers: .idempotencyKey("u-1"))

            #expect(first.status == .created)
            #expect(replay.status == .created)
            #expect(replay.headers[.idempotentReplayed] == "true")
            #expect(replay.text == first.text)
            #expect(try await client.allUsers(as: admin).count == 10)
        }
    }

    @Test("a key is forgotten after 24 hours: the same key then creates a new course")
    func keysExpire() async throws {
        try await withClockedServer { clock, client in
            let teacher = try await client.caller(.demoTeacher)
            let first = try await client.send(
                .post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey("daily"))
            clock.advance(by: 24 * 3600 + 1)
            let later = try await client.caller(.demoTeacher)

            let again = try await client.send(
                .post, "/v1/courses", as: later, body: Self.courseBody, headers: .idempotencyKey("daily"))

            #expect(again.status == .created)
            #expect(again.headers[.idempotentReplayed] == nil)
            #expect(try again.decode(CourseBody.self).id != (try first.decode(CourseBody.self)).id)
        }
    }

    @Test("a key is still honoured just before 24 hours")
    func keysLastADay() async throws {
        try await withClockedServer { clock, client in
            let teacher = try await client.caller(.demoTeacher)
            _ = try await client.send(
                .post, "/v1/courses", as: teacher, body: Self.courseBody, headers: .idempotencyKey("daily"))
            clock.advance(by: 24 * 3600 - 60)
            let later = try await client.caller(.demoTeacher)

            let again = try await client.send(
                .post, "/v1/courses", as: later, body: Self.courseBody, headers: .idempotencyKey("daily"))

            #expect(again.headers[.idempotentReplayed] == "true")
        }
    }

    @Test("a key longer than 255 characters answers 400 validation_failed")
    func keyTooLong() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .post, "/v1/courses", as: teacher, body: Self.courseBody,
                headers: .idempotencyKey(String(repeating: "k", count: 256)))

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["Idempotency-Key"])
        }
    }

    @Test("a refused caller's key is not stored: a student's 403 stays a 403")
    func refusalIsNotStored() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            _ = try await client.send(
                .post, "/v1/courses", as: student, body: Self.courseBody, headers: .idempotencyKey("s-1"))

            let again = try await client.send(
                .post, "/v1/courses", as: student, body: Self.courseBody, headers: .idempotencyKey("s-1"))

            try expectProblem(again, .forbidden, "forbidden")
            #expect(again.headers[.idempotentReplayed] == nil)
        }
    }
}

/// The in-flight rules of ``IdempotencyCoordinator``, driven directly so that the first request
/// can be held mid-operation deterministically.
@Suite(.timeLimit(.minutes(3))) struct IdempotencyInFlightTests {
    /// A caller of a fresh, migrated in-memory tenant database.
    static func identity() throws -> Identity {
        guard let tenantID = TenantID("demo") else { throw HelperFailure(description: "bad tenant id") }
        let tenant = try TenantDatabase.open(tenantID: tenantID, at: nil)
        let user = UserRecord(
            id: "user-1", email: "ana@example.com", emailKey: "ana@example.com", passwordHash: "", firstName: "Ana",
            lastName: "García", role: .teacher, emailVerified: true, version: 1,
            createdAt: TestClock.start, updatedAt: TestClock.start)
        return Identity(store: TenantStore(tenant), user: user, sessionID: "session-1")
    }

    /// Starts a request under `key` whose operation waits for `release`; returns once it is in flight.
    static func holdFirstRequest(
        _ coordinator: IdempotencyCoordinator, identity: Identity, key: String, release: AsyncStream<Void>
    ) async -> Task<Response, any Error> {
        let (started, didStart) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await coordinator.perform(
                key: key, identity: identity, method: "POST", path: "/v1/courses", body: Data(#"{"a":1}"#.utf8)
            ) {
                didStart.yield()
                for await _ in release { break }
                return EncodedResponse(status: .created, headers: [:], body: Data(#"{"id":"first"}"#.utf8))
            }
        }
        for await _ in started { break }
        return first
    }

    /// A second request under a key whose first request is in flight: the same body is told to
    /// wait, another body is refused as a reused key.
    static let whileInFlight: [(body: String, code: String, status: HTTPResponse.Status)] = [
        (#"{"a":1}"#, "idempotency_in_progress", .conflict),
        (#"{"a":2}"#, "idempotency_key_reused", .unprocessableContent),
    ]

    @Test(
        "a second request while the first with the same key is in flight answers 409 idempotency_in_progress; with another body, 422 idempotency_key_reused",
        arguments: whileInFlight)
    func inFlightConflict(body: String, code: String, status: HTTPResponse.Status) async throws {
        // Given a first request holding key k mid-operation
        let clock = TestClock()
        let coordinator = IdempotencyCoordinator(retention: .seconds(86_400), now: { clock.now })
        let identity = try Self.identity()
        let (release, releaseFirst) = AsyncStream.makeStream(of: Void.self)
        let first = await Self.holdFirstRequest(coordinator, identity: identity, key: "k", release: release)

        // When a request with the same key arrives
        let refusal = await #expect(throws: StoreError.self) {
            try await coordinator.perform(
                key: "k", identity: identity, method: "POST", path: "/v1/courses", body: Data(body.utf8)
            ) {
                Issue.record("the second request must not run")
                return EncodedResponse.noContent()
            }
        }

        // Then it is refused without running, and the first completes normally
        let error = refusal.map(APIError.init)
        #expect(error?.code == code)
        #expect(error?.status == status)
        releaseFirst.yield()
        #expect(try await first.value.status == .created)
    }

    @Test("once the first request has finished, the same key replays its answer")
    func replayAfterCompletion() async throws {
        let clock = TestClock()
        let coordinator = IdempotencyCoordinator(retention: .seconds(86_400), now: { clock.now })
        let identity = try Self.identity()
        let (release, releaseFirst) = AsyncStream.makeStream(of: Void.self)
        let first = await Self.holdFirstRequest(coordinator, identity: identity, key: "k", release: release)
        releaseFirst.yield()
        _ = try await first.value

        let replay = try await coordinator.perform(
            key: "k", identity: identity, method: "POST", path: "/v1/courses", body: Data(#"{ "a" : 1 }"#.utf8)
        ) {
            Issue.record("a replay must not run the operation")
            return EncodedResponse.noContent()
        }

        #expect(replay.status == .created)
        #expect(replay.headers[.idempotentReplayed] == "true")
    }

    @Test("a snapshot restore waits for a keyed request between its claim and its answer, so no write straddles it (seed 1932)")
    func restoreWaitsForKeyedRequests() async throws {
        // Given a snapshot, and a keyed request that claimed its key and is running its write
        let clock = TestClock()
        let coordinator = IdempotencyCoordinator(retention: .seconds(86_400), now: { clock.now })
        let identity = try Self.identity()
        let snapshot = try await identity.store.saveSnapshot(to: nil)
        let (release, releaseFirst) = AsyncStream.makeStream(of: Void.self)
        let first = await Self.holdFirstRequest(coordinator, identity: identity, key: "k", release: release)

        // When the snapshot is restored meanwhile
        let restored = Mutex(false)
        let restoring = Task {
            try await identity.store.restoreSnapshot(snapshot)
            restored.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(300))

        // Then the restore waits until the request has stored its answer
        #expect(!restored.withLock { $0 }, "the restore landed between the claim and the answer")
        releaseFirst.yield()
        #expect(try await first.value.status == .created)
        try await restoring.value

        // And, the restore having taken the request back whole, the key runs once more, in the restored data
        let ran = Mutex(0)
        let again = try await coordinator.perform(
            key: "k", identity: identity, method: "POST", path: "/v1/courses", body: Data(#"{"a":1}"#.utf8)
        ) {
            ran.withLock { $0 += 1 }
            return EncodedResponse(status: .created, headers: [:], body: Data(#"{"id":"again"}"#.utf8))
        }
        #expect(ran.withLock { $0 } == 1)
        #expect(again.headers[.idempotentReplayed] == nil)
    }

    @Test("a snapshot restore waiting for requests holds new ones back only while it runs, and requests may nest")
    func replacementGateOrder() async throws {
        final class Order: Sendable {
            let items = Mutex<[String]>([])
            func append(_ item: String) { items.withLock { $0.append(item) } }
        }
        let gate = ReplacementGate()
        let order = Order()
        let (release, releaseRequest) = AsyncStream.makeStream(of: Void.self)
        let (started, didStart) = AsyncStream.makeStream(of: Void.self)
        let request = Task {
            try await gate.whileInPlace {
                didStart.yield()
                for await _ in release { break }
                // Nested use while the replacement waits does not deadlock
                try await gate.whileInPlace { order.append("request") }
            }
        }
        for await _ in started { break }
        let replacement = Task { try await gate.replacing { order.append("replacement") } }
        try await Task.sleep(for: .milliseconds(100))
        let later = Task { try await gate.whileInPlace { order.append("later request") } }
        try await later.value
        releaseRequest.yield()
        try await request.value
        try await replacement.value
        #expect(order.items.withLock { $0 } == ["later request", "request", "replacement"])
    }

    @Test("a claim left without an answer for over a minute is taken over by the next request")
    func abandonedClaimTakenOver() async throws {
        let clock = TestClock()
        let coordinator = IdempotencyCoordinator(retention: .seconds(86_400), now: { clock.now })
        let identity = try Self.identity()
        let (release, releaseFirst) = AsyncStream.makeStream(of: Void.self)
        let first = await Self.holdFirstRequest(coordinator, identity: identity, key: "k", release: release)
        clock.advance(by: 61)

        let second = try await coordinator.perform(
            key: "k", identity: identity, method: "POST", path: "/v1/courses", body: Data(#"{"a":1}"#.utf8)
        ) {
            EncodedResponse(status: .created, headers: [:], body: Data(#"{"id":"second"}"#.utf8))
        }

        #expect(second.status == .created)
        #expect(second.headers[.idempotentReplayed] == nil)
        releaseFirst.yield()
        _ = try await first.value
    }

}
