import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The retry loop of `APIClient.send`, observed through the stub's requests and the recorded sleeps.
@Suite(.timeLimit(.minutes(2))) struct APIClientRetryTests {
    let environment = TestEnvironment()

    /// A signed-in client (its token never needs a refresh) with `policy`.
    func client(_ transport: StubTransport, policy: RetryPolicy) async -> APIClient {
        let store = await Fixture.store(holding: Fixture.session(expiresAt: .distantFuture))
        return Fixture.client(transport: transport, environment: environment, store: store, retryPolicy: policy)
    }

    @Test("the default policy sleeps 1 s and 2 s between three attempts, then gives up")
    func defaultPolicyThroughClient() async throws {
        // Given a server that keeps answering 503
        let transport = StubTransport(script: [.status(503)])
        // When a GET is executed with the default policy
        await #expect(throws: NetworkError.serverError(status: 503, code: nil)) {
            try await client(transport, policy: .default).execute(endpoint: .Courses.list(), as: Ping.self)
        }
        // Then it was sent three times with the policy's sleeps in between
        #expect(transport.requests.count == 3)
        #expect(environment.sleeps == [.seconds(1), .seconds(2)])
    }

    @Test("the aggressive policy sleeps 0.5, 0.75, 1.125 and 1.6875 s between five attempts")
    func aggressivePolicyThroughClient() async throws {
        let transport = StubTransport(script: [.status(502)])
        _ = try await client(transport, policy: .aggressive).send(endpoint: .Courses.list())
        #expect(transport.requests.count == 5)
        #expect(environment.sleeps == [.milliseconds(500), .milliseconds(750), .milliseconds(1125), .milliseconds(1687.5)])
    }

    @Test("the none policy sends once and never sleeps")
    func nonePolicyThroughClient() async throws {
        let transport = StubTransport(script: [.status(503)])
        let response = try await client(transport, policy: .none).send(endpoint: .Courses.list())
        #expect(response.statusCode == 503)
        #expect(transport.requests.count == 1)
        #expect(environment.sleeps.isEmpty)
    }

    @Test("a retry that succeeds returns the decoded answer")
    func recoversAfterTransientFailures() async throws {
        let transport = StubTransport(script: [.status(503), .offline, .response(.ok)])
        let ping = try await client(transport, policy: .default).execute(endpoint: .Courses.list(), as: Ping.self)
        #expect(ping == Ping(ok: true))
        #expect(environment.sleeps == [.seconds(1), .seconds(2)])
    }

    @Test("the environment's jitter is applied to every recorded sleep")
    func jitterThroughClient() async throws {
        environment.setJitter(1)
        let transport = StubTransport(script: [.failure(.timedOut)])
        await #expect(throws: NetworkError.timeout) {
            try await client(transport, policy: .default).send(endpoint: .Courses.list())
        }
        #expect(environment.sleeps == [.milliseconds(1200), .milliseconds(2400)])
    }

    @Test("losing the connection on every attempt ends in noConnection after the last attempt")
    func offlineExhaustsAttempts() async throws {
        let transport = StubTransport(script: [.offline])
        await #expect(throws: NetworkError.noConnection) {
            try await client(transport, policy: .default).send(endpoint: .Courses.list())
        }
        #expect(transport.requests.count == 3)
    }

    @Test("a status that is not retryable is answered after one attempt", arguments: [400, 401, 403, 404, 409, 422])
    func nonRetryableStatusThroughClient(status: Int) async throws {
        let transport = StubTransport(script: [.status(status), .response(.ok)])
        let response = try await client(transport, policy: .aggressive).send(endpoint: .health)
        #expect(response.statusCode == status)
        #expect(transport.requests.count == 1)
        #expect(environment.sleeps.isEmpty)
    }

    @Test("a POST without an Idempotency-Key is never retried")
    func postWithoutKey() async throws {
        let transport = StubTransport(script: [.offline, .response(.ok)])
        await #expect(throws: NetworkError.noConnection) {
            try await client(transport, policy: .aggressive).send(endpoint: .Courses.create, body: Data("{}".utf8))
        }
        #expect(transport.requests.count == 1)
        #expect(environment.sleeps.isEmpty)
    }

    @Test("a PATCH without an Idempotency-Key is never retried")
    func patchWithoutKey() async throws {
        let transport = StubTransport(script: [.status(503), .response(.ok)])
        let response = try await client(transport, policy: .aggressive).send(endpoint: .Courses.update("c1"), body: Data("{}".utf8))
        #expect(response.statusCode == 503)
        #expect(transport.requests.count == 1)
    }

    @Test("a POST with an Idempotency-Key is retried with the same key")
    func postWithKey() async throws {
        let transport = StubTransport(script: [.status(503), .offline, .response(.ok)])
        let ping = try await client(transport, policy: .default).execute(
            endpoint: .Courses.create, body: Ping(ok: true), headers: ["Idempotency-Key": "key-1"], as: Ping.self)
        #expect(ping.ok)
        #expect(transport.requests.map { $0.headers["Idempotency-Key"] } == ["key-1", "key-1", "key-1"])
        #expect(environment.sleeps == [.seconds(1), .seconds(2)])
    }

    @Test("a 503 with Retry-After in seconds sleeps exactly that long")
    func retryAfterSecondsThroughClient() async throws {
        let transport = StubTransport(script: [.status(503, headers: ["Retry-After": "7"]), .response(.ok)])
        _ = try await client(transport, policy: .default).send(endpoint: .Courses.list())
        #expect(environment.sleeps == [.seconds(7)])
    }

    @Test("a 429 with Retry-After as an HTTP-date sleeps until that date")
    func retryAfterDateThroughClient() async throws {
        let retryAt = HTTPDate.string(environment.now + .seconds(10))
        let transport = StubTransport(script: [.status(429, headers: ["Retry-After": retryAt]), .response(.ok)])
        _ = try await client(transport, policy: .default).send(endpoint: .Courses.list())
        #expect(environment.sleeps == [.seconds(10)])
        #expect(transport.requests.count == 2)
    }

    @Test("a Retry-After beyond maximumRetryAfter is not waited for: the 429 is answered at once")
    func retryAfterTooLongThroughClient() async throws {
        let transport = StubTransport(script: [.response(.problem(429, code: "rate_limited", headers: ["Retry-After": "3600"])), .response(.ok)])
        await #expect(throws: NetworkError.rateLimited(retryAfter: .seconds(3600))) {
            try await client(transport, policy: .aggressive).execute(endpoint: .Courses.list(), as: Ping.self)
        }
        #expect(transport.requests.count == 1)
        #expect(environment.sleeps.isEmpty)
    }

    @Test("cancelling the caller stops the retries with NetworkError.cancelled")
    func cancellationStopsRetries() async throws {
        let transport = StubTransport(script: [.offline])
        let client = await client(transport, policy: .aggressive)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(endpoint: .Courses.list())
        }
        await #expect(throws: NetworkError.cancelled) { try await task.value }
        #expect(transport.requests.isEmpty)
    }
}
