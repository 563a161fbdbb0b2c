import Foundation

/// A write the server refused for good, kept with the server's reason until the app retries or
/// discards it (``Outbox/retryDeadLetter(id:)``, ``Outbox/discardDeadLetter(id:)``).
public struct DeadLetter: Sendable, Equatable, Identifiable {
    /// The id it had in the outbox; a retried dead letter goes back to this place.
    public internal(set) var id: Int64
    /// The resource the write was for.
    public internal(set) var resource: ResourceKey
    /// What the write did to the resource.
    public internal(set) var operation: OutboxItem.Operation
    /// The HTTP method it was sent with.
    public internal(set) var method: String
    /// The request path.
    public internal(set) var path: String
    /// The JSON body the client wanted to write.
    public internal(set) var body: Data?
    /// The version the write was based on.
    public internal(set) var baseVersion: Int?
    /// The server representation the write was based on.
    public internal(set) var baseJson: Data?
    /// The `Idempotency-Key` its attempts carried (a retry carries it again).
    public internal(set) var idempotencyKey: String
    /// When the write was queued.
    public internal(set) var createdAt: Date
    /// When the server refused it (or it became stale).
    public internal(set) var failedAt: Date
    /// The server's problem `code` (e.g. `not_found`), or `stale` for writes older than 24 h.
    public internal(set) var reason: String
    /// The HTTP status of the refusal (`nil` for a stale or malformed write that was never answered).
    public internal(set) var status: Int?
    /// The server's problem+json body.
    public internal(set) var problem: Data?
}
