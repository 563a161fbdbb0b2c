import Foundation
import GRDB

/// One cached API object (a course, lesson, enrollment, progress record or profile), stored as
/// the JSON the server sent, with local edits applied optimistically on top.
struct CachedEntity: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "entities"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    /// The kind of resource, its descriptor's ``SyncedResource/type``.
    var kind: ResourceType
    var id: String
    var parentId: String?
    var sortKey: String
    var json: Data
    var version: Int?
    var fetchedAt: Date

    enum Columns {
        static let kind = Column("kind")
        static let id = Column("id")
        static let parentId = Column("parent_id")
        static let sortKey = Column("sort_key")
    }

    /// Inserts the entity or replaces the cached one with the same kind and id, unless the cached
    /// one is of a later version: one cached statement (a settlement and a refresh store entities
    /// on every write; `save` ran an update, then an insert, each through the record coder).
    ///
    /// Within one history a resource's version only grows, so an older state arriving late (the
    /// replayed answer of a write whose first answer was lost, a write's answer landing after a
    /// pull brought a later version) never replaces a newer one: the pull's cursor is already past
    /// the newer change and would never bring it back. A base sync empties the cache first, so a
    /// history the server replaced (a restore) is never compared with the old one.
    func store(_ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO entities (kind, id, parent_id, sort_key, json, version, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (kind, id) DO UPDATE SET parent_id = excluded.parent_id, sort_key = excluded.sort_key,
            json = excluded.json, version = excluded.version, fetched_at = excluded.fetched_at
            WHERE excluded.version IS NULL OR entities.version IS NULL OR excluded.version >= entities.version
            """).execute(arguments: [kind.rawValue, id, parentId, sortKey, json, version, fetchedAt])
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONCoding.decoder.decode(T.self, from: json)
    }

    static func make<T: Encodable>(
        _ value: T, kind: ResourceType, id: String, parentID: String? = nil, sortKey: String = "", version: Int?, at date: Date
    ) throws -> CachedEntity {
        CachedEntity(
            kind: kind, id: id, parentId: parentID, sortKey: sortKey, json: try JSONCoding.encoder.encode(value),
            version: version, fetchedAt: date)
    }
}

/// A resource type is stored as its name.
extension ResourceType: DatabaseValueConvertible {}
