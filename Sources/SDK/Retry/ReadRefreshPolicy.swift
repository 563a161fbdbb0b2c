import Foundation

/// How patient a refresh for a read is.
///
/// A read answers from the local store anyway, so refreshing it must not keep the caller
/// waiting the way a write's replay may: one short retry at most, a short `Retry-After` honoured,
/// and the whole refresh (every request and wait of it) bounded by ``budget``. When the budget
/// runs out the read answers from the store, stale with ``StaleReason/timedOut``.
public struct ReadRefreshPolicy: Sendable, Equatable {
    /// Retries within a refresh.
    public var retryPolicy: RetryPolicy
    /// The longest a refresh may take, retries and waits included.
    public var budget: Duration

    /// Creates a policy; by default ``RetryPolicy/read`` within 3 seconds.
    public init(retryPolicy: RetryPolicy = .read, budget: Duration = .seconds(3)) {
        self.retryPolicy = retryPolicy
        self.budget = budget
    }
}
