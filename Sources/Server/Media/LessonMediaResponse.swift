import EduGoServerStore
import Foundation

/// The `media` member of a lesson: what its file is, without where it lives.
struct LessonMediaResponse: Encodable, Sendable, JSONWritable {
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

    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("content_type")
        json.string(contentType)
        json.key("size_bytes")
        json.int(sizeBytes)
        json.key("sha256")
        json.string(sha256)
        json.key("updated_at")
        json.date(updatedAt)
        json.endObject()
    }
}
