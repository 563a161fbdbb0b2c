import Foundation

/// A lesson: cached under its course, in the course's order.
enum LessonResource: SyncedResource {
    static let wireType = "lesson"
    static let kind = CachedEntity.Kind.lesson

    static func entity(_ lesson: Lesson, courseID: String?, at date: Date) throws -> CachedEntity {
        try CachedEntity.make(
            lesson, kind: kind, id: lesson.id, parentID: lesson.courseId, sortKey: String(format: "%06d", lesson.order),
            version: lesson.version, at: date)
    }
}
