import Foundation

/// Why a value read from the local store may be older than the server's: the last attempt to
/// refresh it could not get a good answer.
///
/// Reads never fail while the store can answer them (HTTP's `stale-if-error`, RFC 5861); they
/// carry this reason instead, so an app can say "offline" or "server busy" next to the data.
public enum StaleReason: Sendable, Equatable {
    /// The server could not be reached (no network, refused or dropped connection).
    case offline
    /// The server answered, but with a failure that is not about the request: a 5xx, or 429.
    /// `retryAfter` is the server's `Retry-After`, when it sent one.
    case serverUnavailable(status: Int, retryAfter: Duration?)
    /// The server did not answer within the read's time budget.
    case timedOut

    /// The reason a refresh failing with `error` leaves the cached copy in place, or `nil` when
    /// the error is an answer the caller must act on (401, 403, 404, a malformed response…).
    public init?(_ error: NetworkError) {
        switch error {
        case .noConnection: self = .offline
        case .timeout: self = .timedOut
        case .serverError(let status, _, let retryAfter): self = .serverUnavailable(status: status, retryAfter: retryAfter)
        case .rateLimited(let retryAfter): self = .serverUnavailable(status: 429, retryAfter: retryAfter)
        default: return nil
        }
    }
}
