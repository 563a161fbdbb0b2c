import Foundation

/// One lesson's progress for one learner.
public struct LessonProgress: Codable, Sendable, Equatable {
    public var lessonId: String
    public var completed: Bool
    public var completedAt: Date?
    public var watchedSeconds: Int
    public var version: Int
    public var updatedAt: Date
}

/// A learner's progress through a course.
public struct CourseProgress: Codable, Sendable, Equatable {
    public var courseId: String
    public var userId: String
    public var lessons: [LessonProgress]
    public var completedLessons: Int
    public var totalLessons: Int
    public var percent: Double
}

/// The body of `PUT /v1/courses/{id}/progress`.
public struct ProgressUpdate: Codable, Sendable, Equatable {
    public var lessonId: String
    public var completed: Bool?
    public var watchedSeconds: Int?
    /// The version this update is based on; `nil` for the first write of a lesson.
    public var version: Int?

    public init(lessonId: String, completed: Bool? = nil, watchedSeconds: Int? = nil, version: Int? = nil) {
        self.lessonId = lessonId
        self.completed = completed
        self.watchedSeconds = watchedSeconds
        self.version = version
    }
}
