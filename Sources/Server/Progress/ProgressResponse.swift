import EduGoServerStore
import Foundation

/// One lesson's progress for one learner.
struct LessonProgressResponse: Encodable, Sendable {
    var lessonId: String
    var completed: Bool
    var completedAt: Date?
    var watchedSeconds: Int
    var version: Int
    var updatedAt: Date

    init(_ record: ProgressRecord) {
        self.lessonId = record.lessonId
        self.completed = record.completed
        self.completedAt = record.completedAt
        self.watchedSeconds = record.watchedSeconds
        self.version = record.version
        self.updatedAt = record.updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case lessonId, completed, completedAt, watchedSeconds, version, updatedAt
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lessonId, forKey: .lessonId)
        try container.encode(completed, forKey: .completed)
        try container.encode(completedAt, forKey: .completedAt)  // null until completed
        try container.encode(watchedSeconds, forKey: .watchedSeconds)
        try container.encode(version, forKey: .version)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// A learner's progress through a course.
struct CourseProgressResponse: Encodable, Sendable {
    var courseId: String
    var userId: String
    var lessons: [LessonProgressResponse]
    var completedLessons: Int
    var totalLessons: Int
    var percent: Double

    /// The representation of the progress the store read.
    init(_ progress: CourseProgress) {
        courseId = progress.courseID
        userId = progress.userID
        lessons = progress.lessons.map(LessonProgressResponse.init)
        completedLessons = progress.completedLessons
        totalLessons = progress.totalLessons
        percent = Self.percent(completed: progress.completedLessons, total: progress.totalLessons)
    }

    static func percent(completed: Int, total: Int) -> Double {
        guard total > 0 else { return 0 }
        return (Double(completed) / Double(total) * 10_000).rounded() / 100
    }
}

extension ProgressRecord: SyncRepresentable {
    /// How the change feed carries a learner's progress in a lesson.
    var syncRepresentation: any Encodable & Sendable { LessonProgressResponse(self) }
}
