import Foundation

/// A course of the catalogue: cached newest first; its tombstone takes its lessons and the
/// learner's progress and enrollment in it.
enum CourseResource: SyncedResource {
    static let wireType = "course"
    static let kind = CachedEntity.Kind.course
    static let cascades = true

    static func entity(_ course: Course, courseID: String?, at date: Date) throws -> CachedEntity {
        // Newest first: invert the creation time so an ascending sort key lists newest first.
        let key = String(format: "%012.0f", 1e11 - course.createdAt.timeIntervalSince1970)
        return try CachedEntity.make(course, kind: kind, id: course.id, sortKey: key, version: course.version, at: date)
    }
}
