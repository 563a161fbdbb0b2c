import Foundation

/// A write waiting to reach the server.
///
/// It carries the `Idempotency-Key` it was given when it was queued (reused on every replay), and
/// the version and representation it was based on, so a conflict can be merged three ways.
public struct OutboxItem: Sendable, Equatable, Identifiable {
    /// What the write does to its resource.
    public enum Operation: String, Codable, Sendable {
        /// The write creates the resource (`POST`, or enrolling).
        case create
        /// The write changes the resource.
        case update
        /// The write removes the resource.
        case delete
    }

    /// The item's place in the outbox: items replay in id order per resource.
    public internal(set) var id: Int64
    /// The resource written: items of one resource replay in order.
    public internal(set) var resource: ResourceKey
    /// What the write does to the resource.
    public internal(set) var operation: Operation
    /// The HTTP method it is sent with.
    public internal(set) var method: String
    /// The request path, e.g. `/v1/courses/<id>/progress`.
    public internal(set) var path: String
    /// The JSON body (without `version`: the outbox adds the base version when it sends).
    public internal(set) var body: Data?
    /// The version the write was based on (`nil` for creations and first writes).
    public internal(set) var baseVersion: Int?
    /// The server representation the write was based on (for three-way merges).
    public internal(set) var baseJson: Data?
    /// The `Idempotency-Key` every attempt of this write carries.
    public internal(set) var idempotencyKey: String
    /// When the write was queued (or queued again from a dead letter or a conflict).
    public internal(set) var createdAt: Date
    /// How many times it was sent; a write sent once is never merged with a later one.
    public internal(set) var attempts: Int
    /// When it is due again after a failed attempt (`nil`: due now).
    public internal(set) var nextAttemptAt: Date?
    /// Why its last attempt did not settle it, when one did not.
    public internal(set) var lastError: String?
}
