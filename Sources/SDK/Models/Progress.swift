import Foundation

/// One lesson's progress for one learner.
public struct LessonProgress: Codable, Sendable, Equatable {
    /// The lesson this record is for.
    public var lessonId: String
    /// Whether the learner finished the lesson.
    public var completed: Bool
    /// When the learner finished it; `nil` while it is not completed.
    public var completedAt: Date?
    /// How far into the lesson the learner got, in seconds.
    public var watchedSeconds: Int
    /// Raised by the server on every change; a progress write sends the version it is based on.
    public var version: Int
    /// When the record last changed.
    public var updatedAt: Date
}

/// A learner's progress through a course.
public struct CourseProgress: Codable, Sendable, Equatable {
    /// The course.
    public var courseId: String
    /// The learner.
    public var userId: String
    /// The learner's record of each lesson with progress.
    public var lessons: [LessonProgress]
    /// How many lessons the learner completed.
    public var completedLessons: Int
    /// How many lessons the course has.
    public var totalLessons: Int
    /// The completed share of the lessons, from 0 to 100.
    public var percent: Double
}

/// The body of `PUT /v1/courses/{id}/progress`.
public struct ProgressUpdate: Codable, Sendable, Equatable {
    /// The lesson the update is for.
    public var lessonId: String
    /// `true` marks the lesson completed, `false` not completed; `nil` leaves it as it is.
    public var completed: Bool?
    /// How far into the lesson the learner got, in seconds; `nil` leaves it as it is.
    public var watchedSeconds: Int?
    /// The version this update is based on; `nil` for the first write of a lesson.
    public var version: Int?

    /// Creates an update; a field left `nil` is not changed.
    public init(lessonId: String, completed: Bool? = nil, watchedSeconds: Int? = nil, version: Int? = nil) {
        self.lessonId = lessonId
        self.completed = completed
        self.watchedSeconds = watchedSeconds
        self.version = version
    }
}
