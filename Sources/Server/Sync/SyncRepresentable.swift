/// A synced entity's state, as its ``EduGoServerStore/FeedEntity`` descriptor reads it, with how
/// the change feed carries it: the same representation as its `GET`. A synced resource declares it
/// once, beside its response type; a state without it fails to encode (`SyncChange`).
protocol SyncRepresentable: Sendable {
    /// The wire representation.
    var syncRepresentation: any Encodable & Sendable { get }
}
