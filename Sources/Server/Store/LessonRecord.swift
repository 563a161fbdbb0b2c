import Foundation
import GRDB

/// A row of `lessons`.
struct LessonRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "lessons"

    var id: String
    var courseId: String
    var title: String
    var content: String
    var order: Int
    var durationMinutes: Int
    var videoUrl: String?
    var version: Int
    var createdAt: Date
    var updatedAt: Date
    // Lesson media (migration v2-media): all nil, or all set.
    var mediaContentType: String? = nil
    var mediaSize: Int? = nil
    var mediaSHA256: String? = nil
    var mediaUpdatedAt: Date? = nil
    /// The file's name in the tenant's media directory.
    var mediaFile: String? = nil

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    enum CodingKeys: String, CodingKey {
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

    enum Columns {
        static let courseId = Column("course_id")
        static let order = Column("order")
    }
}
