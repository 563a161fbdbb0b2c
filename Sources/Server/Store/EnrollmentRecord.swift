import Foundation
import GRDB

/// A row of `enrollments`: a learner enrolled in a course.
struct EnrollmentRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "enrollments"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var courseId: String
    var userId: String
    var enrolledAt: Date
}
