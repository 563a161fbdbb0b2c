import Foundation

/// One page of the server's change feed (`GET /v1/sync/changes`), decoded through the resource
/// descriptors (``SyncedResources``).
struct ChangePage: Decodable, Sendable {
    var changes: [PulledChange]
    var cursor: String
    var hasMore: Bool
    /// The next page continues the base sync this page belongs to.
    var baseContinues: Bool
}

/// One pulled change, ready for the store: the cached entity to write, or the one to remove.
struct PulledChange: Decodable, Sendable {
    enum Action: Sendable {
        /// Store this entity (its `fetchedAt` is set when the page is applied).
        case upsert(CachedEntity)
        /// The caller can no longer see the entity.
        case delete
        /// A type this SDK does not know (added to the server later): skipped.
        case ignore
    }

    var kind: CachedEntity.Kind?
    var entityID: String
    var courseID: String?
    /// Whether a deletion takes the entities that hang off this one.
    var cascades: Bool
    /// The outbox key whose queued writes are based on this entity.
    var resource: ResourceKey?
    var action: Action
    /// The change as ``SyncEngine/remoteChanges()`` tells it (`nil` for a type this SDK skips).
    var announced: RemoteChange?

    enum CodingKeys: String, CodingKey {
        case type, op, id, courseId, data
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        let id = try container.decode(String.self, forKey: .id)
        let courseID = try container.decodeIfPresent(String.self, forKey: .courseId)
        self.courseID = courseID
        guard let descriptor = SyncedResources.descriptor(wireType: type) else {
            (kind, entityID, cascades, resource, action, announced) = (nil, id, false, nil, .ignore, nil)
            return
        }
        kind = descriptor.kind
        entityID = descriptor.entityID(id: id, courseID: courseID)
        cascades = descriptor.cascades
        resource = descriptor.resourceKey(id: id, courseID: courseID)
        switch try container.decode(String.self, forKey: .op) {
        case "delete":
            action = .delete
            announced = RemoteChange(type: type, id: id, courseID: courseID, operation: .delete)
        case "upsert":
            action = .upsert(try Self.entity(descriptor, container, courseID: courseID))
            announced = RemoteChange(type: type, id: id, courseID: courseID, operation: .upsert)
        default:
            action = .ignore
            announced = nil
        }
    }

    private static func entity<Resource: SyncedResource>(
        _ descriptor: Resource.Type, _ container: KeyedDecodingContainer<CodingKeys>, courseID: String?
    ) throws -> CachedEntity {
        let value = try container.decode(Resource.Wire.self, forKey: .data)
        return try Resource.entity(value, courseID: courseID, at: .distantPast)
    }
}
