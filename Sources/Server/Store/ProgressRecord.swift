import Foundation
import GRDB

/// A row of `progress`: one learner's progress through one lesson.
struct ProgressRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "progress"

    var userId: String
    var lessonId: String
    var courseId: String
    var completed: Bool
    var completedAt: Date?
    var watchedSeconds: Int
    var version: Int
    var updatedAt: Date

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case lessonId = "lesson_id"
        case courseId = "course_id"
        case completed
        case completedAt = "completed_at"
        case watchedSeconds = "watched_seconds"
        case version
        case updatedAt = "updated_at"
    }
}
