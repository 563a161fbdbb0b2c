import Foundation

/// A lesson: cached under its course, in the course's order; it goes with its course.
enum LessonResource: SyncedResource {
    static let type = ResourceType.lesson
    static let removedWithCourse = CourseLink.parent

    static func entity(_ lesson: Lesson, courseID: String?, at date: Date) throws -> CachedEntity {
        try CachedEntity.make(
            lesson, kind: type, id: lesson.id, parentID: lesson.courseId, sortKey: String(format: "%06d", lesson.order),
            version: lesson.version, at: date)
    }
}

extension ResourceType {
    /// A lesson (`lesson`).
    public static let lesson = ResourceType(rawValue: "lesson")
}

extension LocalRead<Cached<[Lesson]>> {
    /// A course's cached lessons in order.
    static func lessons(courseID: String) -> Self { LessonResource.localValues(parentID: courseID) }
}
