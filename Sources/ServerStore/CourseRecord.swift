import Foundation
import GRDB

/// A row of `courses`.
package struct CourseRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "courses"

    /// The fixed catalogue of categories.
    package static let categories = ["mathematics", "science", "languages", "programming", "history", "arts", "business"]

    package var id: String
    package var title: String
    package var description: String
    package var category: String
    package var thumbnailUrl: String?
    package var published: Bool
    package var teacherId: String
    package var version: Int
    package var createdAt: Date
    package var updatedAt: Date

    package init(id: String, title: String, description: String, category: String, thumbnailUrl: String? = nil, published: Bool, teacherId: String, version: Int, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.title = title
        self.description = description
        self.category = category
        self.thumbnailUrl = thumbnailUrl
        self.published = published
        self.teacherId = teacherId
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    package enum CodingKeys: String, CodingKey {
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

    package enum Columns {
        package static let id = Column("id")
        package static let category = Column("category")
        package static let published = Column("published")
        package static let teacherId = Column("teacher_id")
        package static let createdAt = Column("created_at")
    }
}
