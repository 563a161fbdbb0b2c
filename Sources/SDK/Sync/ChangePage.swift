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

    var kind: ResourceType?
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
        guard let descriptor = SyncedResources.descriptor(of: ResourceType(rawValue: type)) else {
            (kind, entityID, self.courseID, cascades, resource, action, announced) = (nil, id, courseID, false, nil, .ignore, nil)
            return
        }
        self = try Self.decode(descriptor, container, id: id, courseID: courseID)
    }

    private static func decode<Resource: SyncedResource>(
        _ descriptor: Resource.Type, _ container: KeyedDecodingContainer<CodingKeys>, id: String, courseID: String?
    ) throws -> PulledChange {
        switch try container.decode(String.self, forKey: .op) {
        case "delete": return try PulledChange(descriptor, id: id, courseID: courseID, upserting: nil)
        case "upsert":
            let value = try container.decode(Resource.Wire.self, forKey: .data)
            return try PulledChange(descriptor, id: id, courseID: courseID, upserting: value)
        default:
            var change = try PulledChange(descriptor, id: id, courseID: courseID, upserting: nil)
            (change.action, change.announced) = (.ignore, nil)
            return change
        }
    }

    /// The change of the resource of `Resource` the feed names `id` (in `courseID`): an upsert of
    /// `value`, or its deletion when `value` is `nil`.
    init<Resource: SyncedResource>(_ descriptor: Resource.Type, id: String, courseID: String?, upserting value: Resource.Wire?) throws {
        kind = Resource.type
        entityID = Resource.entityID(id: id, courseID: courseID)
        self.courseID = courseID
        cascades = Resource.cascades
        resource = Resource.resourceKey(id: id, courseID: courseID)
        if let value {
            action = .upsert(try Resource.entity(value, courseID: courseID, at: .distantPast))
            announced = RemoteChange(type: Resource.type.rawValue, id: id, courseID: courseID, operation: .upsert)
        } else {
            action = .delete
            announced = RemoteChange(type: Resource.type.rawValue, id: id, courseID: courseID, operation: .delete)
        }
    }
}
