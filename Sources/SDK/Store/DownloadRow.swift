import Foundation
import GRDB

/// A ``DownloadRecord`` as a row of the `downloads` table.
struct DownloadRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "downloads"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var lessonId: String
    var courseId: String
    var pinned: Bool
    var etag: String?
    var size: Int64?
    var contentType: String?
    var complete: Bool
    var lastUsed: Date
    var needsCheck: Bool

    init(_ record: DownloadRecord) {
        lessonId = record.lessonID
        courseId = record.courseID
        pinned = record.pinned
        etag = record.etag
        size = record.size
        contentType = record.contentType
        complete = record.complete
        lastUsed = record.lastUsed
        needsCheck = record.needsCheck
    }

    var record: DownloadRecord {
        DownloadRecord(
            lessonID: lessonId, courseID: courseId, pinned: pinned, etag: etag, size: size, contentType: contentType,
            complete: complete, lastUsed: lastUsed, needsCheck: needsCheck)
    }
}
