import Foundation
import GRDB

/// A row of `enrollments`: a learner enrolled in a course.
package struct EnrollmentRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "enrollments"

    package var courseId: String
    package var userId: String
    package var enrolledAt: Date

    package init(courseId: String, userId: String, enrolledAt: Date) {
        self.courseId = courseId
        self.userId = userId
        self.enrolledAt = enrolledAt
    }

    /// Column names, spelled out: GRDB would otherwise convert every key of every row it decodes.
    package enum CodingKeys: String, CodingKey {
        case courseId = "course_id"
        case userId = "user_id"
        case enrolledAt = "enrolled_at"
    }
}
