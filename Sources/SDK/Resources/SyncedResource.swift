import Foundation

/// Everything the SDK knows about one kind of synced resource, in one place: its name on the
/// wire (the change feed's `type`), its representation, where it is cached and under which id,
/// and which queued writes are based on it.
///
/// The pull (``ChangePage``), the cache (``OfflineStore``) and the outbox's rebasing are generic
/// over these descriptors; adding a resource means adding one (see CONTRIBUTING.md).
protocol SyncedResource {
    /// The representation the server sends (the resource's GET body).
    associatedtype Wire: Codable & Sendable

    /// The change feed's `type` for this resource.
    static var wireType: String { get }
    /// Where its state is cached.
    static var kind: CachedEntity.Kind { get }
    /// Whether a tombstone of it takes the entities that hang off it (a course's lessons, the
    /// caller's progress and enrollment in it).
    static var cascades: Bool { get }

    /// The cached entity's id for the feed's `id` and `course_id`.
    static func entityID(id: String, courseID: String?) -> String
    /// The cached entity of `value`.
    static func entity(_ value: Wire, courseID: String?, at date: Date) throws -> CachedEntity
    /// The outbox key of writes based on this entity, when writes are queued for it.
    static func resourceKey(id: String, courseID: String?) -> ResourceKey?
}

extension SyncedResource {
    static var cascades: Bool { false }
    static func entityID(id: String, courseID: String?) -> String { id }
    static func resourceKey(id: String, courseID: String?) -> ResourceKey? { nil }
}

/// The descriptors of every synced resource, by their wire type.
enum SyncedResources {
    static var all: [any SyncedResource.Type] {
        [CourseResource.self, LessonResource.self, EnrollmentResource.self, ProgressResource.self, ProfileResource.self]
    }

    /// The descriptor of the change feed's `type`, `nil` for a type this SDK does not know.
    static func descriptor(wireType: String) -> (any SyncedResource.Type)? {
        all.first { $0.wireType == wireType }
    }

    /// Every kind of cached entity the pull owns (a base sync replaces them all).
    static var kinds: [CachedEntity.Kind] { all.map { $0.kind } }
}
