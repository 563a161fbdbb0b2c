import Foundation
import GRDB

/// A row of `courses`.
struct CourseRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "courses"

    /// The fixed catalogue of categories.
    static let categories = ["mathematics", "science", "languages", "programming", "history", "arts", "business"]

    var id: String
    var title: String
    var description: String
    var category: String
    var thumbnailUrl: String?
    var published: Bool
    var teacherId: String
    var version: Int
    var createdAt: Date
    var updatedAt: Date

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    enum CodingKeys: String, CodingKey {
        case id
        case title
        case description
        case category
        case thumbnailUrl = "thumbnail_url"
        case published
        case teacherId = "teacher_id"
        case version
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    enum Columns {
        static let id = Column("id")
        static let category = Column("category")
        static let published = Column("published")
        static let teacherId = Column("teacher_id")
        static let createdAt = Column("created_at")
    }
}
