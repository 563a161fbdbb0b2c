import Foundation

/// The learner's enrollment in a course: cached under the course's id; unversioned.
enum EnrollmentResource: SyncedResource {
    static let wireType = "enrollment"
    static let kind = CachedEntity.Kind.enrollment

    static func entity(_ enrollment: Enrollment, courseID: String?, at date: Date) throws -> CachedEntity {
        try CachedEntity.make(enrollment, kind: kind, id: enrollment.courseId, version: nil, at: date)
    }

    static func resourceKey(id: String, courseID: String?) -> ResourceKey? { .enrollment(course: id) }
}
