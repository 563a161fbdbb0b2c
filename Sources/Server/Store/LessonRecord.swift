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
    }

    enum Columns {
        static let courseId = Column("course_id")
        static let order = Column("order")
    }
}
