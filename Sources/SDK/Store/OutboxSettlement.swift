import Foundation

/// What becomes of a write a drain claimed, once its attempt has an outcome: the store applies it
/// with ``OfflineStore/settle(_:_:at:)``, in one transaction that changes the write's row in place.
enum OutboxSettlement: Sendable, Equatable {
    /// The server applied the write: its answer replaces the cached state, the write leaves the
    /// outbox, the resource's later writes are rebased on the version it produced, and the HTTP
    /// cache's answers under `droppingResponses` (which the write made stale) are dropped. With
    /// `raising` (the resource's rule, when it merges), the later writes never sent are raised to
    /// the answer's fields that only move one way.
    case delivered(answer: Data, droppingResponses: [String], raising: ConflictRule? = nil)
    /// A conflict settled for the server: its state is cached and the write leaves the outbox.
    case acceptServer(json: Data?)
    /// A conflict settled by sending `body` again on top of the server's `version`, due at once.
    /// The failed attempt stored nothing under the write's key, so the key is kept.
    case resend(body: Data, version: Int, serverJson: Data?)
    /// Parked for the user as a conflict, with the server's state when it was detected.
    case conflict(serverVersion: Int?, serverJson: Data?)
    /// Refused for good: a dead letter with the server's `reason`, `status` and `problem` —
    /// unless `prerequisite` still has a creation queued: then the write is queued again, due at
    /// once, to be sent after it (``ResourceKey``'s prerequisite). The check and the move are one step.
    case deadLetter(reason: String, status: Int?, problem: Data?, unlessCreationQueuedFor: ResourceKey?)
    /// Not settled yet: queued again, due at `date`, with `error` as its last error.
    case retry(at: Date, error: String)
}
