import Foundation
import GRDB

/// One cached API object (a course, lesson, enrollment, progress record or profile), stored as
/// the JSON the server sent, with local edits applied optimistically on top.
struct CachedEntity: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "entities"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Kind: String, Codable, Sendable {
        case course, lesson, enrollment, progress, profile
    }

    var kind: Kind
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

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONCoding.decoder.decode(T.self, from: json)
    }

    static func make<T: Encodable>(
        _ value: T, kind: Kind, id: String, parentID: String? = nil, sortKey: String = "", version: Int?, at date: Date
    ) throws -> CachedEntity {
        CachedEntity(
            kind: kind, id: id, parentId: parentID, sortKey: sortKey, json: try JSONCoding.encoder.encode(value),
            version: version, fetchedAt: date)
    }
}
