import EduGoServerStore
import Foundation

/// The public representation of an enrollment.
struct EnrollmentResponse: Encodable, Sendable {
    var courseId: String
    var userId: String
    var enrolledAt: Date

    init(_ record: EnrollmentRecord) {
        self.courseId = record.courseId
        self.userId = record.userId
        self.enrolledAt = record.enrolledAt
    }
}

extension EnrollmentRecord: SyncRepresentable {
    /// How the change feed carries an enrollment.
    var syncRepresentation: any Encodable & Sendable { EnrollmentResponse(self) }
}
