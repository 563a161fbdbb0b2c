import Foundation

/// A change made elsewhere — on the server, by another device or user — that a pull applied to
/// the local store. ``SyncEngine/remoteChanges()`` tells them as they are applied.
public struct RemoteChange: Sendable, Equatable {
    /// What happened to the entity.
    public enum Operation: String, Sendable {
        /// Created or changed: the store holds its new state.
        case upsert
        /// Deleted, or no longer visible to the user: the store no longer holds it.
        case delete
    }

    /// The entity's kind as the API names it: `course`, `lesson`, `enrollment`, `progress` or `profile`.
    public var type: String
    /// The entity's id (a lesson's for progress, a course's for an enrollment).
    public var id: String
    /// The course it belongs to, for a lesson, enrollment or progress record.
    public var courseID: String?
    public var operation: Operation

    public init(type: String, id: String, courseID: String?, operation: Operation) {
        self.type = type
        self.id = id
        self.courseID = courseID
        self.operation = operation
    }
}
