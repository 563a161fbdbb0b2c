import Foundation

/// A course as the API returns it.
public struct Course: Codable, Sendable, Equatable, Identifiable {
    /// The server's id of the course, used in every ``Endpoint/Courses`` call.
    public var id: String
    /// The name learners see.
    public var title: String
    /// A longer text about what the course teaches.
    public var description: String
    /// The category it is filed under; course lists can be filtered by it.
    public var category: String
    /// The address of its cover image, when it has one.
    public var thumbnailUrl: String?
    /// Whether it is published for learners, or still a draft.
    public var published: Bool
    /// The user id of the teacher who owns it.
    public var teacherId: String
    /// How many lessons it has.
    public var lessonCount: Int
    /// Raised by the server on every change. Writes send the version they are based on, so a stale
    /// write is a conflict instead of an overwrite.
    public var version: Int
    /// When it was created.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
}

/// A lesson of a course.
public struct Lesson: Codable, Sendable, Equatable, Identifiable {
    /// The server's id of the lesson.
    public var id: String
    /// The course it belongs to.
    public var courseId: String
    /// The name learners see.
    public var title: String
    /// The lesson's text.
    public var content: String
    /// Its position in the course, lowest first.
    public var order: Int
    /// How long it is expected to take, in minutes.
    public var durationMinutes: Int
    /// The address of its video, when it has one.
    public var videoUrl: String?
    /// Raised by the server on every change, and sent back with writes (see ``Course/version``).
    public var version: Int
    /// When it was created.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
}

/// `GET /v1/courses/{id}/lessons`.
public struct LessonList: Codable, Sendable, Equatable {
    /// The course's lessons.
    public var items: [Lesson]
}

/// One page of a collection.
///
/// A list answered for `page=` (or with neither `page` nor `after`) carries ``page`` and
/// ``total``; a list continued with `after` carries neither. Every `/v1` list carries ``next``.
public struct Page<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The items on this page.
    public var items: [Item]
    /// Which page this is; `nil` when the page continued from a cursor (`after`).
    public var page: Int?
    /// The most items a page holds.
    public var limit: Int
    /// How many items the whole collection holds, across all pages; `nil` when the page
    /// continued from a cursor (`after`).
    public var total: Int?
    /// The opaque cursor of the next page (the server's `after`); `nil` on the last page.
    public var next: String?

    /// Whether no page follows this one, when `received` items of the list arrived so far.
    func isLast(received: Int) -> Bool {
        if items.isEmpty { return true }
        if let total { return received >= total }
        return next == nil
    }
}

/// The caller's enrollment in a course.
public struct Enrollment: Codable, Sendable, Equatable {
    /// The course enrolled in.
    public var courseId: String
    /// The enrolled user.
    public var userId: String
    /// When the enrollment was made.
    public var enrolledAt: Date
}

/// An enrolled course with the learner's progress.
public struct EnrolledCourse: Codable, Sendable, Equatable {
    /// The course.
    public var course: Course
    /// When the learner enrolled.
    public var enrolledAt: Date
    /// How many of its lessons the learner completed.
    public var completedLessons: Int
    /// How many lessons the course has.
    public var totalLessons: Int
    /// The completed share of the lessons, from 0 to 100.
    public var percent: Double
}
