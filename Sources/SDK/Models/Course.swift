import Foundation

/// A course as the API returns it.
public struct Course: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var description: String
    public var category: String
    public var thumbnailUrl: String?
    public var published: Bool
    public var teacherId: String
    public var lessonCount: Int
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date
}

/// A lesson of a course.
public struct Lesson: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var courseId: String
    public var title: String
    public var content: String
    public var order: Int
    public var durationMinutes: Int
    public var videoUrl: String?
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date
}

/// `GET /v1/courses/{id}/lessons`.
public struct LessonList: Codable, Sendable, Equatable {
    public var items: [Lesson]
}

/// One page of a collection.
public struct Page<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var items: [Item]
    public var page: Int
    public var limit: Int
    public var total: Int
}

/// The caller's enrollment in a course.
public struct Enrollment: Codable, Sendable, Equatable {
    public var courseId: String
    public var userId: String
    public var enrolledAt: Date
}

/// An enrolled course with the learner's progress.
public struct EnrolledCourse: Codable, Sendable, Equatable {
    public var course: Course
    public var enrolledAt: Date
    public var completedLessons: Int
    public var totalLessons: Int
    public var percent: Double
}
