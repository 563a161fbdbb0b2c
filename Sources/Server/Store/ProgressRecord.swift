import Foundation
import GRDB

/// A row of `progress`: one learner's progress through one lesson.
struct ProgressRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "progress"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var userId: String
    var lessonId: String
    var courseId: String
    var completed: Bool
    var completedAt: Date?
    var watchedSeconds: Int
    var version: Int
    var updatedAt: Date
}
