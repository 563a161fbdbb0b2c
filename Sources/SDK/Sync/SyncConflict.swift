import Foundation

/// A write whose base version was stale, parked for the app to settle (the `manual` strategy,
/// or a write that met a newer version too often): ``Outbox/resolveConflict(id:choice:)``.
public struct SyncConflict: Sendable, Equatable, Identifiable {
    /// The id it had in the outbox; a write sent again goes back to this place.
    public internal(set) var id: Int64
    /// The resource the write was for.
    public internal(set) var resource: ResourceKey
    /// What the write does to the resource.
    public internal(set) var operation: OutboxItem.Operation
    /// The HTTP method it is sent with.
    public internal(set) var method: String
    /// The request path.
    public internal(set) var path: String
    /// What this client wanted to write.
    public internal(set) var body: Data?
    /// The version the write was based on.
    public internal(set) var baseVersion: Int?
    /// The server representation the write was based on.
    public internal(set) var baseJson: Data?
    /// The `Idempotency-Key` its attempts carried.
    public internal(set) var idempotencyKey: String
    /// When the write was queued.
    public internal(set) var createdAt: Date
    /// The server's version when the conflict was detected (`nil` when it did not say).
    public internal(set) var serverVersion: Int?
    /// The server's representation when the conflict was detected.
    public internal(set) var serverJson: Data?
    /// When the conflict was detected.
    public internal(set) var detectedAt: Date
}
