import EduGoServerStore
import Foundation

/// The `media` member of a lesson: what its file is, without where it lives.
struct LessonMediaResponse: Encodable, Sendable {
    var contentType: String
    var sizeBytes: Int
    var sha256: String
    var updatedAt: Date

    /// The media of `record`, `nil` when it has none.
    init?(_ record: LessonRecord) {
        guard let contentType = record.mediaContentType, let size = record.mediaSize, let sha256 = record.mediaSHA256,
            let updatedAt = record.mediaUpdatedAt
        else { return nil }
        self.contentType = contentType
        self.sizeBytes = size
        self.sha256 = sha256
        self.updatedAt = updatedAt
    }
}
