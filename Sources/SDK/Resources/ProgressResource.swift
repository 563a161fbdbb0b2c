import Foundation

/// The learner's progress in one lesson: cached as `<course>/<lesson>` under the course; queued
/// progress writes are based on it.
enum ProgressResource: SyncedResource {
    static let wireType = "progress"
    static let kind = CachedEntity.Kind.progress

    static func entityID(id lessonID: String, courseID: String?) -> String {
        "\(courseID ?? "")/\(lessonID)"
    }

    static func entity(_ progress: LessonProgress, courseID: String?, at date: Date) throws -> CachedEntity {
        let course = courseID ?? ""
        return try CachedEntity.make(
            progress, kind: kind, id: entityID(id: progress.lessonId, courseID: course), parentID: course,
            sortKey: progress.lessonId, version: progress.version, at: date)
    }

    static func resourceKey(id lessonID: String, courseID: String?) -> ResourceKey? {
        courseID.map { .progress(course: $0, lesson: lessonID) }
    }
}
