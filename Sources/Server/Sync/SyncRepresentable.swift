/// A synced entity's state, as its ``EduGoServerStore/FeedEntity`` descriptor reads it, with its
/// representation: the same as its `GET`, carried by the change feed (`SyncChange`) and by a
/// version conflict's `current`. A synced resource declares it once, beside its response type; a
/// state without it fails to encode.
protocol SyncRepresentable: Sendable {
    /// The wire representation.
    var syncRepresentation: any Encodable & Sendable { get }
}
