import Foundation
import GRDB

/// Writes server answers into the local entity cache, by the resource they answer for: generic
/// over the resource descriptors.
enum LocalCache {
    /// The cached versioned server state of `resource`: what a write to it is based on. `nil`
    /// when nothing is cached or the resource has no version (an enrollment).
    static func base(_ db: Database, of resource: ResourceKey) throws -> CachedEntity? {
        guard let descriptor = resource.descriptor,
            let entity = try LocalView.entity(db, kind: descriptor.type, id: descriptor.entityID(of: resource)),
            entity.version != nil
        else { return nil }
        return entity
    }

    /// Stores `json`, the server's state of `resource`, as its cached entity (or removes it when
    /// the write deleted it).
    ///
    /// - Returns: the version the server gave the resource, `nil` for an unversioned one or an
    ///   answer that is not its representation.
    @discardableResult
    static func apply(_ db: Database, resource: ResourceKey, operation: OutboxItem.Operation, json: Data?, at now: Date) throws -> Int? {
        guard let descriptor = resource.descriptor else { return nil }
        return try apply(db, descriptor, resource: resource, operation: operation, json: json, at: now)
    }

    /// ``apply(_:resource:operation:json:at:)`` for a resource of `Resource`.
    @discardableResult
    static func apply<Resource: SyncedResource>(
        _ db: Database, _ descriptor: Resource.Type, resource: ResourceKey, operation: OutboxItem.Operation, json: Data?,
        at now: Date
    ) throws -> Int? {
        let id = Resource.entityID(of: resource)
        if operation == .delete {
            _ = try CachedEntity.deleteOne(db, key: ["kind": Resource.type.rawValue, "id": id])
            return nil
        }
        // An answer that is not the resource's representation (or is another resource's) is not cached.
        guard let json, let value = try? JSONCoding.decoder.decode(Resource.Wire.self, from: json),
            let entity = try? Resource.entity(value, courseID: Resource.courseID(of: resource), at: now), entity.id == id
        else { return nil }
        try entity.store(db)
        return entity.version
    }
}
