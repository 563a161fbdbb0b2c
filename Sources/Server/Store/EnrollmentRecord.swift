import Foundation
import GRDB

/// A row of `enrollments`: a learner enrolled in a course.
struct EnrollmentRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "enrollments"

    var courseId: String
    var userId: String
    var enrolledAt: Date

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    enum CodingKeys: String, CodingKey {
        case courseId = "course_id"
        case userId = "user_id"
        case enrolledAt = "enrolled_at"
    }
}
