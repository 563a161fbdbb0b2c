import Foundation

/// A course of the catalogue: cached newest first; its tombstone takes its lessons and the
/// learner's progress and enrollment in it. Read-only in the SDK: no writes are queued for it.
enum CourseResource: SyncedResource {
    static let type = ResourceType.course
    static let cascades = true

    static func entity(_ course: Course, courseID: String?, at date: Date) throws -> CachedEntity {
        // Newest first: invert the creation time so an ascending sort key lists newest first.
        let key = String(format: "%012.0f", 1e11 - course.createdAt.timeIntervalSince1970)
        return try CachedEntity.make(course, kind: type, id: course.id, sortKey: key, version: course.version, at: date)
    }
}

extension ResourceType {
    /// A course (`course`).
    public static let course = ResourceType(rawValue: "course")
}

extension LocalRead<Cached<[Course]>> {
    /// The cached courses, newest first, of one category and matching a search when given (in the
    /// title or description, ignoring case and accents).
    static func courses(category: String?, matching query: String? = nil) -> Self {
        CourseResource.localValues().map { cached in
            var courses = cached.value
            if let category { courses = courses.filter { $0.category == category } }
            if let query, !query.isEmpty {
                let needle = fold(query)
                courses = courses.filter { fold($0.title + " " + $0.description).contains(needle) }
            }
            return Cached(value: courses, hasPendingWrites: false, fetchedAt: cached.fetchedAt)
        }
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

extension LocalRead<Cached<Course>?> {
    /// One cached course.
    static func course(id: String) -> Self { CourseResource.localValue(id: id) }
}
