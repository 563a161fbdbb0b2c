import Foundation
import GRDB

/// Reads the local view of cached entities: the server's last state with pending outbox writes
/// laid over it, in order. Generic over the resource descriptors: what the repositories return
/// and observe, through ``LocalRead``.
enum LocalView {
    /// A queued write as the local view lays it over the server's state.
    struct Write {
        var key: ResourceKey
        var operation: OutboxItem.Operation
        var body: Data?
    }

    static func values<Resource: SyncedResource>(
        _ db: Database, _ resource: Resource.Type, parentID: String?, writesUnder prefix: String?, now: Date
    ) throws -> Cached<[Resource.Wire]> {
        let entities = try entities(db, kind: Resource.type, parentID: parentID)
        let writes = try prefix.map { try queued(db, prefix: $0) } ?? []
        var order = entities.map(\.id)
        var server: [String: Data] = [:]
        for entity in entities { server[entity.id] = entity.json }
        var writesByID: [String: [Write]] = [:]
        for write in writes {
            let id = Resource.entityID(of: write.key)
            if writesByID[id] == nil, server[id] == nil, let placeholder = Resource.placeholder(for: write.key, at: now) {
                order.append(id)
                server[id] = placeholder
            }
            writesByID[id, default: []].append(write)
        }
        let values = try order.compactMap { id -> Resource.Wire? in
            guard let json = overlay(server[id], writesByID[id] ?? []) else { return nil }
            return try JSONCoding.decoder.decode(Resource.Wire.self, from: json)
        }
        return Cached(value: values, hasPendingWrites: !writes.isEmpty, fetchedAt: entities.map(\.fetchedAt).min())
    }

    static func value<Resource: SyncedResource>(
        _ db: Database, _ resource: Resource.Type, id: String, writes key: ResourceKey?
    ) throws -> Cached<Resource.Wire>? {
        guard let entity = try entity(db, kind: Resource.type, id: id) else { return nil }
        let writes = try key.map { try queued(db, key: $0) } ?? []
        guard let json = overlay(entity.json, writes) else { return nil }
        return Cached(
            value: try JSONCoding.decoder.decode(Resource.Wire.self, from: json), hasPendingWrites: !writes.isEmpty,
            fetchedAt: entity.fetchedAt)
    }

    static func ids<Resource: SyncedResource>(_ db: Database, _ resource: Resource.Type, writesUnder prefix: String) throws -> Cached<Set<String>> {
        let entities = try entities(db, kind: Resource.type)
        var ids = Set(entities.map(\.id))
        let writes = try queued(db, prefix: prefix)
        for write in writes {
            let id = Resource.entityID(of: write.key)
            if write.operation == .delete { ids.remove(id) } else { ids.insert(id) }
        }
        return Cached(value: ids, hasPendingWrites: !writes.isEmpty, fetchedAt: entities.map(\.fetchedAt).min())
    }

    /// The condition of the writes the view lays over the server's state: queued or in flight, not
    /// dead letters or conflicts.
    private static let pending = QueuedWrite.State.pendingSQL

    /// The queued writes whose stored key starts with `prefix` (exactly, as a range of the key's
    /// index: ``PrefixRange``), in queue order.
    static func queued(_ db: Database, prefix: String) throws -> [Write] {
        let range = PrefixRange(column: "resource", prefix: prefix)
        return try queued(
            db, sql: "SELECT resource, operation, body FROM queued_writes WHERE \(range.sql) AND \(pending) ORDER BY id",
            arguments: range.arguments)
    }

    /// The queued writes of `key`, in queue order.
    static func queued(_ db: Database, key: ResourceKey) throws -> [Write] {
        try queued(
            db, sql: "SELECT resource, operation, body FROM queued_writes WHERE resource = ? AND \(pending) ORDER BY id",
            arguments: [key.description])
    }

    private static func queued(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Write] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            let text: String = try row.decode(forColumn: "resource")
            let operation: String = try row.decode(forColumn: "operation")
            guard let key = ResourceKey.parse(text), let parsed = OutboxItem.Operation(rawValue: operation) else {
                throw StoreRowError.unreadable(table: "queued_writes", resource: text)
            }
            return Write(key: key, operation: parsed, body: try row.decode(forColumn: "body"))
        }
    }

    /// `server` with the bodies of `writes` merged over it; `nil` when the last write deletes. A
    /// field that only moves one way (the resource's ``ConflictRule/monotonic``) shows the furthest
    /// value: a write sent and unanswered, made on an older state than a pull brought since, never
    /// shows a watch time smaller than the server already holds.
    static func overlay(_ server: Data?, _ writes: [Write]) -> Data? {
        var current = server
        for write in writes {
            if write.operation == .delete { current = nil; continue }
            let body = write.key.descriptor.map { $0.conflicts.raised(write.body, over: current) } ?? write.body
            current = JSONObject.merge(current ?? Data("{}".utf8), body)
        }
        return current
    }

    static func entities(_ db: Database, kind: ResourceType, parentID: String? = nil) throws -> [CachedEntity] {
        var request = CachedEntity.filter(CachedEntity.Columns.kind == kind.rawValue)
        if let parentID { request = request.filter(CachedEntity.Columns.parentId == parentID) }
        return try request.order(CachedEntity.Columns.sortKey, CachedEntity.Columns.id).fetchAll(db)
    }

    static func entity(_ db: Database, kind: ResourceType, id: String) throws -> CachedEntity? {
        try CachedEntity.fetchOne(db, key: ["kind": kind.rawValue, "id": id])
    }
}
