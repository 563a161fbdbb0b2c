import Foundation

/// What ``Downloads`` remembers of one lesson's file, across app restarts: a row of the user's
/// ``OfflineStore``.
struct DownloadRecord: Codable, Sendable, Equatable {
    var lessonID: String
    var courseID: String
    /// Kept whatever the budget ("pinned"), or a cache evicted least-recently-used.
    var pinned: Bool
    /// The server's `ETag` (`"<sha256>"`) of the bytes on disk: the `If-Range` of a resume.
    var etag: String?
    /// The file's size once known.
    var size: Int64?
    var contentType: String?
    /// Verified and moved into place.
    var complete: Bool
    /// Last downloaded or opened (the eviction order).
    var lastUsed: Date
    /// Set by a reset (the server's data was replaced: a snapshot restore, an import): the media
    /// may have changed under the file, so it is not served as current until the server confirms
    /// its `ETag` again (``Downloads`` checks it on the file's next use).
    var needsCheck = false

    /// The manifest of an older SDK has no `needsCheck`: its files were verified when it wrote them.
    enum CodingKeys: String, CodingKey {
        case lessonID, courseID, pinned, etag, size, contentType, complete, lastUsed
    }

    /// The SHA-256 the `ETag` names (lowercase hex), when it is one.
    var sha256: String? { etag.flatMap(Self.sha256(of:)) }
}

/// The `manifest.json` in which an older SDK kept the records, read once to import them into the
/// store (and then deleted).
struct LegacyDownloadManifest: Decodable, Sendable, Equatable {
    var records: [String: DownloadRecord] = [:]

    /// The manifest's records; none when the file is missing or unreadable.
    static func records(at url: URL) -> [DownloadRecord] {
        guard let data = try? Data(contentsOf: url),
            let manifest = try? JSONDecoder().decode(LegacyDownloadManifest.self, from: data)
        else { return [] }
        return Array(manifest.records.values)
    }
}
