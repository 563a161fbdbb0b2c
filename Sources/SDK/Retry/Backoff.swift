/// How long to wait before the next attempt.
public enum Backoff: Sendable, Equatable {
    /// No wait: retry at once.
    case none
    /// The same wait before every retry.
    case constant(Duration)
    /// `base × attempt`.
    case linear(base: Duration)
    /// `base × multiplier^(attempt-1)`, capped at `maximum`.
    case exponential(base: Duration, multiplier: Double, maximum: Duration)

    /// The nominal delay before retry number `attempt` (1 = the first retry), without jitter.
    public func delay(forRetry attempt: Int) -> Duration {
        let attempt = max(1, attempt)
        switch self {
        case .none:
            return .zero
        case .constant(let delay):
            return delay
        case .linear(let base):
            return base * attempt
        case .exponential(let base, let multiplier, let maximum):
            var factor = 1.0
            for _ in 1..<attempt { factor *= multiplier }
            let delay = base * factor
            return delay > maximum ? maximum : delay
        }
    }
}
