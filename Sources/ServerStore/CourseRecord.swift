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

    /// Read by column name, not through `Decodable`, whose row decoder cost about 2,700
    /// instructions a row more.
    package init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"), title: try row.decode(forColumn: "title"),
            description: try row.decode(forColumn: "description"), category: try row.decode(forColumn: "category"),
            thumbnailUrl: try row.decode(forColumn: "thumbnail_url"), published: try row.decode(forColumn: "published"),
            teacherId: try row.decode(forColumn: "teacher_id"), version: try row.decode(forColumn: "version"),
            createdAt: try row.decode(forColumn: "created_at"), updatedAt: try row.decode(forColumn: "updated_at"))
    }

    /// Every column, in the order ``init(selected:)`` reads them: a statement that selects this
    /// list first fixes where each column stands, whatever order the table has.
    package static let selection =
        "courses.id, courses.title, courses.description, courses.category, courses.thumbnail_url, courses.published, "
        + "courses.teacher_id, courses.version, courses.created_at, courses.updated_at"

    /// Reads a row whose first columns are ``selection``, by position: a list page decodes 21
    /// rows, and finding each column by name cost about 370 instructions a column.
    package init(selected row: Row) throws {
        self.init(
            id: try row.decode(atIndex: 0), title: try row.decode(atIndex: 1), description: try row.decode(atIndex: 2),
            category: try row.decode(atIndex: 3), thumbnailUrl: try row.decode(atIndex: 4),
            published: try row.decode(atIndex: 5), teacherId: try row.decode(atIndex: 6), version: try row.decode(atIndex: 7),
            createdAt: try row.decode(atIndex: 8), updatedAt: try row.decode(atIndex: 9))
    }

    /// The first column after ``selection``.
    package static let selectionCount = 10

    /// `created_at` of a row read by ``init(selected:)``, as stored (the text a cursor keeps).
    package static func storedCreatedAt(selected row: Row) throws -> String {
        try row.decode(atIndex: 8)
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
