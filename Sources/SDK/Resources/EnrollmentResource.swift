import Foundation

/// The learner's enrollment in a course: cached under the course's id, unversioned; enrolling and
/// leaving are queued under `enrollment/<course>`, and the server wins its conflicts.
enum EnrollmentResource: SyncedResource {
    static let type = ResourceType.enrollment
    static let removedWithCourse = CourseLink.sameID
    static let keyIDCount: Int? = 1

    static func entity(_ enrollment: Enrollment, courseID: String?, at date: Date) throws -> CachedEntity {
        try CachedEntity.make(enrollment, kind: type, id: enrollment.courseId, version: nil, at: date)
    }

    static func resourceKey(id: String, courseID: String?) -> ResourceKey? { .enrollment(course: id) }
    static func entityID(of key: ResourceKey) -> String { key.ids.first ?? "" }
    static func courseID(of key: ResourceKey) -> String? { key.ids.first }
}

extension ResourceType {
    /// The learner's enrollment in a course (`enrollment`).
    public static let enrollment = ResourceType(rawValue: "enrollment")
}

extension ResourceKey {
    /// The learner's enrollment in a course: `enrollment/<course>`.
    public static func enrollment(course: String) -> ResourceKey { ResourceKey(.enrollment, ids: [course]) }
}

extension LocalRead<Cached<Set<String>>> {
    /// The enrolled course ids, queued enrollments and departures included.
    static var enrolledCourseIDs: Self { EnrollmentResource.localIDs() }
}
