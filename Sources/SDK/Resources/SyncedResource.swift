import Foundation

/// Everything the SDK knows about one kind of synced resource, in one place: its name on the
/// wire (the change feed's `type`), its representation, where it is cached and under which id,
/// which entities a tombstone of it takes along, the keys of writes queued for it, how a
/// conflicting write merges, and how it is read with those writes laid over it (its `LocalRead`s).
///
/// The pull (``ChangePage``, ``OfflineStore``'s `applyPull`), the cache (`LocalCache`), the local
/// view (`LocalView`, `LocalRead`) and the outbox's keys, rebasing and conflict resolution are
/// generic over these descriptors; adding a resource means adding one (see CONTRIBUTING.md).
protocol SyncedResource: SendableMetatype {
    /// The representation the server sends (the resource's GET body).
    associatedtype Wire: Codable & Sendable & Equatable

    /// The change feed's `type` for this resource, and the kind of its cached entities and keys.
    static var type: ResourceType { get }
    /// Whether a tombstone of it takes the entities that hang off it (those whose
    /// ``removedWithCourse`` says how).
    static var cascades: Bool { get }
    /// How its entity goes when the course it belongs to is removed: by its parent id, by sharing
    /// the course's id, or not at all.
    static var removedWithCourse: CourseLink { get }

    /// The cached entity's id for the feed's `id` and `course_id`.
    static func entityID(id: String, courseID: String?) -> String
    /// The cached entity of `value`; `courseID` is the course it belongs to, when the feed or the
    /// write names one.
    static func entity(_ value: Wire, courseID: String?, at date: Date) throws -> CachedEntity

    // MARK: Writes

    /// How many ids a key of this resource has; `nil` when no writes are queued for it.
    static var keyIDCount: Int? { get }
    /// The outbox key of writes based on the entity the feed names, when writes are queued for it.
    static func resourceKey(id: String, courseID: String?) -> ResourceKey?
    /// The cached entity's id of a write's `key`: where its server state is cached.
    static func entityID(of key: ResourceKey) -> String
    /// The course `key` is about, when it is about one.
    static func courseID(of key: ResourceKey) -> String?
    /// The key whose queued creation a write of `key` waits for.
    static func prerequisite(of key: ResourceKey) -> ResourceKey?
    /// The JSON a write of `key` is laid over when nothing of it is cached yet; `nil` when such a
    /// write shows nothing until the server's state arrives.
    static func placeholder(for key: ResourceKey, at now: Date) -> Data?
    /// How a conflicting write of this resource is settled by default, and how it merges.
    static var conflicts: ConflictRule { get }
    /// The server's current state of `key`, fetched when a first write met a record it did not
    /// know of (a 428); `nil` when the resource cannot be fetched that way.
    static func current(of key: ResourceKey, client: APIClient, userID: String) async -> (version: Int, json: Data)?
}

/// How an entity goes when its course is removed (a course's tombstone, or a 404 when reading it).
enum CourseLink: Sendable {
    /// It does not belong to a course.
    case none
    /// Its parent id is the course's id (lessons, progress).
    case parent
    /// Its id is the course's id (the learner's enrollment).
    case sameID
}

extension SyncedResource {
    static var cascades: Bool { false }
    static var removedWithCourse: CourseLink { .none }
    static func entityID(id: String, courseID: String?) -> String { id }

    static var keyIDCount: Int? { nil }
    static func resourceKey(id: String, courseID: String?) -> ResourceKey? { nil }
    static func entityID(of key: ResourceKey) -> String { key.ids.last ?? "" }
    static func courseID(of key: ResourceKey) -> String? { nil }
    static func prerequisite(of key: ResourceKey) -> ResourceKey? { nil }
    static func placeholder(for key: ResourceKey, at now: Date) -> Data? { nil }
    static var conflicts: ConflictRule { ConflictRule() }
    static func current(of key: ResourceKey, client: APIClient, userID: String) async -> (version: Int, json: Data)? { nil }
}

/// The descriptors of every synced resource, by their type.
enum SyncedResources {
    static var all: [any SyncedResource.Type] {
        [CourseResource.self, LessonResource.self, EnrollmentResource.self, ProgressResource.self, ProfileResource.self]
    }

    /// The descriptor of `type`, `nil` for a type this SDK does not know.
    static func descriptor(of type: ResourceType) -> (any SyncedResource.Type)? {
        all.first { $0.type == type }
    }

    /// Every kind of cached entity the pull owns (a base sync replaces them all).
    static var types: [ResourceType] { all.map { $0.type } }
}
