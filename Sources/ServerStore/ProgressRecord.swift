import Foundation
import GRDB

/// A row of `progress`: one learner's progress through one lesson.
package struct ProgressRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "progress"

    package var userId: String
    package var lessonId: String
    package var courseId: String
    package var completed: Bool
    package var completedAt: Date?
    package var watchedSeconds: Int
    package var version: Int
    package var updatedAt: Date

    package init(userId: String, lessonId: String, courseId: String, completed: Bool, completedAt: Date? = nil, watchedSeconds: Int, version: Int, updatedAt: Date) {
        self.userId = userId
        self.lessonId = lessonId
        self.courseId = courseId
        self.completed = completed
        self.completedAt = completedAt
        self.watchedSeconds = watchedSeconds
        self.version = version
        self.updatedAt = updatedAt
    }

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    package enum CodingKeys: String, CodingKey {
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
