import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) struct RetryPolicyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let get = Fixture.request(.get)

    /// The delays a policy asks for while every attempt answers `status`, until it stops.
    func schedule(_ policy: RetryPolicy, status: Int = 503, jitter: Double = 0) -> [Duration] {
        var delays: [Duration] = []
        var attempt = 1
        while case .retry(let delay) = policy.decide(
            attempt: attempt, request: get, outcome: .response(.json(status, [:] as [String: String])), jitter: jitter,
            now: now)
        {
            delays.append(delay)
            attempt += 1
        }
        return delays
    }

    // MARK: Presets

    @Test("the default policy makes 3 attempts, waiting 1 s then 2 s")
    func defaultSchedule() {
        #expect(RetryPolicy.default.maxAttempts == 3)
        #expect(schedule(.default) == [.seconds(1), .seconds(2)])
    }

    @Test("the aggressive policy makes 5 attempts from 0.5 s growing by 1.5")
    func aggressiveSchedule() {
        #expect(RetryPolicy.aggressive.maxAttempts == 5)
        #expect(schedule(.aggressive) == [.milliseconds(500), .milliseconds(750), .milliseconds(1125), .milliseconds(1687.5)])
    }

    @Test("the none policy never retries")
    func noneSchedule() {
        #expect(RetryPolicy.none.maxAttempts == 1)
        #expect(schedule(.none).isEmpty)
        #expect(RetryPolicy.none.decide(attempt: 1, request: get, outcome: .transportError(.noConnection), jitter: 0, now: now) == .doNotRetry)
    }

    @Test("the last allowed attempt is never followed by another")
    func attemptLimit() {
        let outcome = RetryPolicy.Outcome.response(.json(503, [:] as [String: String]))
        #expect(RetryPolicy.default.decide(attempt: 2, request: get, outcome: outcome, jitter: 0, now: now) == .retry(after: .seconds(2)))
        #expect(RetryPolicy.default.decide(attempt: 3, request: get, outcome: outcome, jitter: 0, now: now) == .doNotRetry)
        #expect(RetryPolicy.aggressive.decide(attempt: 5, request: get, outcome: outcome, jitter: 0, now: now) == .doNotRetry)
    }

    // MARK: Jitter

    @Test("jitter -1 shortens every delay by exactly 20 %")
    func jitterLowerBound() {
        #expect(schedule(.default, jitter: -1) == [.milliseconds(800), .milliseconds(1600)])
    }

    @Test("jitter +1 lengthens every delay by exactly 20 %")
    func jitterUpperBound() {
        #expect(schedule(.default, jitter: 1) == [.milliseconds(1200), .milliseconds(2400)])
    }

    @Test("jitter values outside -1...1 are clamped to ±20 %")
    func jitterClamped() {
        #expect(schedule(.default, jitter: 7) == [.milliseconds(1200), .milliseconds(2400)])
        #expect(schedule(.default, jitter: -7) == [.milliseconds(800), .milliseconds(1600)])
    }

    @Test("every jitter value keeps the delay within ±20 % of the nominal one", arguments: Array(stride(from: -1.0, through: 1.0, by: 0.125)))
    func jitterWithinBounds(jitter: Double) throws {
        let delays = schedule(.aggressive, jitter: jitter)
        let nominal = schedule(.aggressive, jitter: 0)
        try #require(delays.count == nominal.count)
        for (delay, base) in zip(delays, nominal) {
            #expect(delay >= base * 0.8 && delay <= base * 1.2)
        }
    }

    // MARK: What is retried

    @Test("transient statuses are retried", arguments: [408, 429, 500, 502, 503, 504])
    func retriedStatuses(status: Int) {
        let decision = RetryPolicy.default.decide(
            attempt: 1, request: get, outcome: .response(.json(status, [:] as [String: String])), jitter: 0, now: now)
        #expect(decision == .retry(after: .seconds(1)))
    }

    @Test("client errors are not retried", arguments: [400, 401, 403, 404, 409, 412, 422, 428])
    func notRetriedStatuses(status: Int) {
        let decision = RetryPolicy.aggressive.decide(
            attempt: 1, request: get, outcome: .response(.json(status, [:] as [String: String])), jitter: 0, now: now)
        #expect(decision == .doNotRetry)
    }

    @Test("losing the connection or timing out is retried", arguments: [NetworkError.noConnection, .timeout])
    func retriedTransportErrors(error: NetworkError) {
        #expect(RetryPolicy.default.decide(attempt: 1, request: get, outcome: .transportError(error), jitter: 0, now: now) == .retry(after: .seconds(1)))
    }

    @Test(
        "cancellation, security refusals and other failures are not retried",
        arguments: [NetworkError.cancelled, .securityError("http"), .sessionExpired, .unknown("x"), .decodingError("x")])
    func notRetriedTransportErrors(error: NetworkError) {
        #expect(RetryPolicy.default.decide(attempt: 1, request: get, outcome: .transportError(error), jitter: 0, now: now) == .doNotRetry)
    }

    // MARK: Idempotency

    @Test("a POST or PATCH without an Idempotency-Key is never retried", arguments: [HTTPMethod.post, .patch])
    func unsafeMethodsNotRetried(method: HTTPMethod) {
        let request = Fixture.request(method)
        #expect(RetryPolicy.aggressive.decide(attempt: 1, request: request, outcome: .transportError(.noConnection), jitter: 0, now: now) == .doNotRetry)
        #expect(RetryPolicy.aggressive.decide(attempt: 1, request: request, outcome: .response(.json(503, [:] as [String: String])), jitter: 0, now: now) == .doNotRetry)
    }

    @Test("a POST or PATCH with an Idempotency-Key is retried", arguments: [HTTPMethod.post, .patch])
    func keyedUnsafeMethodsRetried(method: HTTPMethod) {
        let request = Fixture.request(method, headers: ["Idempotency-Key": "0b7c6f0e-key"])
        #expect(RetryPolicy.default.decide(attempt: 1, request: request, outcome: .transportError(.noConnection), jitter: 0, now: now) == .retry(after: .seconds(1)))
    }

    @Test("GET, PUT and DELETE are retried without a key", arguments: [HTTPMethod.get, .put, .delete])
    func idempotentMethodsRetried(method: HTTPMethod) {
        #expect(RetryPolicy.default.decide(attempt: 1, request: Fixture.request(method), outcome: .transportError(.timeout), jitter: 0, now: now) == .retry(after: .seconds(1)))
    }

    // MARK: Retry-After

    @Test("Retry-After in seconds sets the delay")
    func retryAfterSeconds() {
        let response = APIResponse.json(503, [:] as [String: String], headers: ["Retry-After": "7"])
        #expect(RetryPolicy.default.decide(attempt: 1, request: get, outcome: .response(response), jitter: 0, now: now) == .retry(after: .seconds(7)))
    }

    @Test("Retry-After as an HTTP-date waits until that date")
    func retryAfterDate() {
        let response = APIResponse.json(429, [:] as [String: String], headers: ["Retry-After": HTTPDate.string(now + .seconds(12))])
        #expect(RetryPolicy.default.decide(attempt: 1, request: get, outcome: .response(response), jitter: 0, now: now) == .retry(after: .seconds(12)))
    }

    @Test("a Retry-After shorter than the backoff still waits the backoff")
    func retryAfterShorterThanBackoff() {
        let response = APIResponse.json(503, [:] as [String: String], headers: ["Retry-After": "0"])
        #expect(RetryPolicy.default.decide(attempt: 2, request: get, outcome: .response(response), jitter: 0, now: now) == .retry(after: .seconds(2)))
    }

    @Test("a Retry-After longer than maximumRetryAfter stops retrying")
    func retryAfterTooLong() {
        let policy = RetryPolicy.default
        let seconds = Int(policy.maximumRetryAfter.components.seconds) + 1
        let response = APIResponse.json(503, [:] as [String: String], headers: ["retry-after": String(seconds)])
        #expect(policy.decide(attempt: 1, request: get, outcome: .response(response), jitter: 0, now: now) == .doNotRetry)
    }

    @Test("a Retry-After equal to maximumRetryAfter is still honoured")
    func retryAfterAtMaximum() {
        let response = APIResponse.json(503, [:] as [String: String], headers: ["Retry-After": "60"])
        #expect(RetryPolicy.default.decide(attempt: 1, request: get, outcome: .response(response), jitter: 0, now: now) == .retry(after: .seconds(60)))
    }
}

/// IMF-fixdate formatting (RFC 9110 §5.6.7) for `Retry-After` fixtures.
enum HTTPDate {
    static func string(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
