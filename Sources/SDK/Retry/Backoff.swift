import Foundation

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
            // In seconds, compared with the cap before a Duration is made of it: a write retried
            // for days reaches retry numbers whose factor no Duration holds (2 s × 2^67 trapped
            // the process), and a factor that overflows to infinity is past any cap.
            let seconds = (base / .seconds(1)) * pow(multiplier, Double(attempt - 1))
            guard seconds.isFinite, seconds < maximum / .seconds(1) else { return maximum }
            return .seconds(max(0, seconds))
        }
    }
}
