import Foundation
import GRDB

/// A row of `lessons`.
package struct LessonRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "lessons"

    package var id: String
    package var courseId: String
    package var title: String
    package var content: String
    package var order: Int
    package var durationMinutes: Int
    package var videoUrl: String?
    package var version: Int
    package var createdAt: Date
    package var updatedAt: Date
    // Lesson media (migration v2-media): all nil, or all set.
    package var mediaContentType: String? = nil
    package var mediaSize: Int? = nil
    package var mediaSHA256: String? = nil
    package var mediaUpdatedAt: Date? = nil
    /// The file's name in the tenant's media directory.
    package var mediaFile: String? = nil

    package init(id: String, courseId: String, title: String, content: String, order: Int, durationMinutes: Int, videoUrl: String? = nil, version: Int, createdAt: Date, updatedAt: Date, mediaContentType: String? = nil, mediaSize: Int? = nil, mediaSHA256: String? = nil, mediaUpdatedAt: Date? = nil, mediaFile: String? = nil) {
        self.id = id
        self.courseId = courseId
        self.title = title
        self.content = content
        self.order = order
        self.durationMinutes = durationMinutes
        self.videoUrl = videoUrl
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.mediaContentType = mediaContentType
        self.mediaSize = mediaSize
        self.mediaSHA256 = mediaSHA256
        self.mediaUpdatedAt = mediaUpdatedAt
        self.mediaFile = mediaFile
    }

    /// Read by column name, not through `Decodable`, whose row decoder cost several thousand
    /// instructions a row more. A column a database made before `v2-media` lacks reads as `nil`.
    package init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"), courseId: try row.decode(forColumn: "course_id"),
            title: try row.decode(forColumn: "title"), content: try row.decode(forColumn: "content"),
            order: try row.decode(forColumn: "order"), durationMinutes: try row.decode(forColumn: "duration_minutes"),
            videoUrl: try row.decode(forColumn: "video_url"), version: try row.decode(forColumn: "version"),
            createdAt: try row.decode(forColumn: "created_at"), updatedAt: try row.decode(forColumn: "updated_at"),
            mediaContentType: try row.decode(forColumn: "media_content_type"),
            mediaSize: try row.decode(forColumn: "media_size"), mediaSHA256: try row.decode(forColumn: "media_sha256"),
            mediaUpdatedAt: try row.decode(forColumn: "media_updated_at"), mediaFile: try row.decode(forColumn: "media_file"))
    }

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    package enum CodingKeys: String, CodingKey {
        case id
        case courseId = "course_id"
        case title
        case content
        case order
        case durationMinutes = "duration_minutes"
        case videoUrl = "video_url"
        case version
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case mediaContentType = "media_content_type"
        case mediaSize = "media_size"
        case mediaSHA256 = "media_sha256"
        case mediaUpdatedAt = "media_updated_at"
        case mediaFile = "media_file"
    }

    package enum Columns {
        package static let courseId = Column("course_id")
        package static let order = Column("order")
    }
}
