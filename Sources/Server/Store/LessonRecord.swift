import Foundation
import GRDB

/// A row of `lessons`.
struct LessonRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "lessons"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

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

    enum Columns {
        static let courseId = Column("course_id")
        static let order = Column("order")
    }
}
