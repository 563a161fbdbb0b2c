import Foundation

/// What the outbox does with an item once its attempt has an outcome: a value chosen by a pure
/// function, without I/O, so the handling of every answer is tested on its own.
///
/// ``OutboxProcessor`` applies it: it stores the answer, asks the ``ConflictPolicy``, reschedules
/// the item, moves it to the dead letters, or stops the drain.
enum OutboxDecision: Sendable, Equatable {
    /// 2xx: the write is applied. Store the answer, remove the item, rebase the resource's later items.
    case settle
    /// 409/412 `version_conflict`: the ``ConflictPolicy`` decides, on the server's version and state.
    case resolveConflict
    /// 428 on a first write of a resource whose first writes merge (progress): another device
    /// recorded it first; fetch its record and merge.
    case fetchAndMerge
    /// Stop the whole drain: the session is gone (every other write would meet the same refusal) or
    /// the server cannot be reached. The item stays queued, due again after `retryAfter` when given.
    /// Never a dead letter: the server did not refuse the write.
    case halt(SyncError, retryAfter: Duration?)
    /// Not a refusal: keep the item and try again after `delay`; its resource sits out this drain.
    case retryLater(SyncError, after: Duration)
    /// The server refused the write for good: a dead letter with `reason` — unless `prerequisite`
    /// (a resource the write depends on) still has a write queued: then the item waits for it.
    case deadLetter(reason: String, unlessQueued: ResourceKey?)

    /// The wait before retry number `attempt` of one item when the server named none: 2 s,
    /// doubling, at most 5 minutes (before jitter).
    static let backoff = Backoff.exponential(base: .seconds(2), multiplier: 2, maximum: .seconds(300))

    /// How far jitter moves a backoff: ±20 %, so devices that went offline together do not all
    /// come back in the same second.
    static let jitterFraction = 0.2

    /// The backoff before retry number `attempt`, moved by `jitter` (a value in `-1...1`).
    static func delay(forRetry attempt: Int, jitter: Double) -> Duration {
        backoff.delay(forRetry: attempt) * max(0, 1 + jitterFraction * max(-1, min(1, jitter)))
    }

    /// How many times one drain resends a write that met a newer version before it parks it as a
    /// conflict for the user: a server that keeps moving ahead must not keep the client looping.
    static let conflictResendLimit = 3

    /// The decision on the server's answer to attempt number `attempt` (1 = the first) of a write to `resource`.
    ///
    /// - Parameters:
    ///   - status: the answer's HTTP status.
    ///   - problem: its problem+json body, when it had one.
    ///   - retryAfter: its parsed `Retry-After`, when it had one (honoured as it is, without jitter).
    ///   - jitter: injected randomness in `-1...1` for the backoff.
    static func decide(
        status: Int, problem: ProblemDetails?, retryAfter: Duration?, resource: ResourceKey, attempt: Int, jitter: Double = 0
    ) -> OutboxDecision {
        let code = problem?.code
        switch status {
        case 200..<300:
            return .settle
        case 409 where code == "version_conflict", 412 where code == "version_conflict":
            return .resolveConflict
        case 428 where resource.descriptor?.conflicts.firstWritesMerge == true:
            return .fetchAndMerge
        case 401:
            // The client already refreshed once and was refused again: the session is over.
            return .halt(.signedOut, retryAfter: nil)
        case 409 where code == "idempotency_in_progress":
            // The same key is still being applied (an earlier attempt whose answer never came):
            // not a refusal. Ask again later; the replay will carry that attempt's result.
            return .retryLater(.idempotencyInProgress, after: retryAfter ?? delay(forRetry: attempt, jitter: jitter))
        case 408, 429, 500...599:
            return .retryLater(.serverStatus(status), after: retryAfter ?? delay(forRetry: attempt, jitter: jitter))
        case 403 where code == "not_enrolled":
            // Progress in a course whose enrollment is still queued: it goes after the enrollment.
            return .deadLetter(reason: "not_enrolled", unlessQueued: resource.prerequisite)
        default:
            return .deadLetter(reason: code ?? "http_\(status)", unlessQueued: nil)
        }
    }

    /// The decision when attempt number `attempt` got no answer (or the session refused to send it).
    static func decide(error: NetworkError, attempt: Int, jitter: Double = 0) -> OutboxDecision {
        let delay = delay(forRetry: attempt, jitter: jitter)
        switch error {
        case .sessionExpired, .unauthorized:
            // Signed out, the refresh refused (logout or password reset elsewhere), or the session
            // belongs to another user: the write waits, untouched, for its user to sign in again.
            return .halt(.signedOut, retryAfter: nil)
        case .noConnection, .timeout:
            return .halt(.offline, retryAfter: delay)
        case .pinningFailed(let host):
            // Not offline and not the write's fault: every other write would meet the same server.
            return .halt(.pinningFailed(host: host), retryAfter: delay)
        case .untrustedCertificate(let host):
            return .halt(.untrustedCertificate(host: host), retryAfter: delay)
        case .cancelled:
            return .halt(.cancelled, retryAfter: delay)
        default:
            return .retryLater(.transport("\(error)"), after: delay)
        }
    }
}
