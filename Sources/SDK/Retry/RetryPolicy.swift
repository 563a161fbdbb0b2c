import Foundation

/// When and how often a failed request is tried again.
///
/// Decisions are values from a pure function, ``decide(attempt:request:outcome:jitter:now:)``,
/// so the schedule is tested without sleeping.
public struct RetryPolicy: Sendable, Equatable {
    /// Total attempts including the first (1 = never retry).
    public var maxAttempts: Int
    /// How long to wait before each retry, before jitter.
    public var backoff: Backoff
    /// Fraction of the delay that is randomised (`0.2` → ±20 %).
    public var jitter: Double
    /// Statuses worth another attempt.
    public var retryableStatuses: Set<Int>
    /// A longer `Retry-After` than this ends the retries instead of waiting.
    public var maximumRetryAfter: Duration

    /// Creates a policy; `maxAttempts` counts the first attempt too. A request that is not safe to
    /// repeat (a POST or PATCH without an `Idempotency-Key`) is never retried, whatever the policy.
    public init(
        maxAttempts: Int, backoff: Backoff, jitter: Double = 0.2,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504], maximumRetryAfter: Duration = .seconds(60)
    ) {
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.jitter = jitter
        self.retryableStatuses = retryableStatuses
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// 3 attempts, exponential from 1 s doubling, ±20 % jitter.
    public static let `default` = RetryPolicy(
        maxAttempts: 3, backoff: .exponential(base: .seconds(1), multiplier: 2, maximum: .seconds(30)))
    /// Never retry.
    public static let none = RetryPolicy(maxAttempts: 1, backoff: .none, jitter: 0)
    /// For refreshing reads: 2 attempts, 250 ms apart, honouring a `Retry-After` of up to 2 s
    /// (a longer one ends the refresh: the read answers from the store).
    public static let read = RetryPolicy(
        maxAttempts: 2, backoff: .constant(.milliseconds(250)), maximumRetryAfter: .seconds(2))
    /// 5 attempts, exponential from 0.5 s × 1.5.
    public static let aggressive = RetryPolicy(
        maxAttempts: 5, backoff: .exponential(base: .milliseconds(500), multiplier: 1.5, maximum: .seconds(20)))

    /// What happened on one attempt.
    public enum Outcome: Sendable {
        /// The server answered, with any status.
        case response(APIResponse)
        /// No answer arrived; the classified failure.
        case transportError(NetworkError)
    }

    /// The decision after an attempt.
    public enum Decision: Sendable, Equatable {
        /// Try again after this wait.
        case retry(after: Duration)
        /// Stop and hand back the last answer or failure.
        case doNotRetry
    }

    /// Decides whether attempt number `attempt` (1-based) should be followed by another.
    ///
    /// - Parameters:
    ///   - jitter: a value in `-1...1` (injected randomness) scaled by ``jitter``.
    ///   - now: the clock, for HTTP-date `Retry-After` values.
    public func decide(attempt: Int, request: APIRequest, outcome: Outcome, jitter: Double, now: Date) -> Decision {
        guard attempt < maxAttempts else { return .doNotRetry }
        // A repeated POST without an Idempotency-Key could create the thing twice.
        guard request.isSafeToRepeat else { return .doNotRetry }
        let nominal = backoff.delay(forRetry: attempt)
        let jittered = nominal * max(0, 1 + self.jitter * max(-1, min(1, jitter)))
        switch outcome {
        case .transportError(let error):
            switch error {
            case .noConnection, .timeout: return .retry(after: jittered)
            default: return .doNotRetry
            }
        case .response(let response):
            guard retryableStatuses.contains(response.statusCode) else { return .doNotRetry }
            if let retryAfter = RetryAfter.parse(response.header("Retry-After"), now: now) {
                return retryAfter > maximumRetryAfter ? .doNotRetry : .retry(after: max(retryAfter, jittered))
            }
            return .retry(after: jittered)
        }
    }
}
