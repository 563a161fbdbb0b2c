import Foundation

/// What ``Downloads`` remembers of one lesson's file, across app restarts (`manifest.json`).
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

    /// The SHA-256 the `ETag` names (lowercase hex), when it is one.
    var sha256: String? { etag.flatMap(Self.sha256(of:)) }
}

/// Every lesson's record, keyed by lesson id.
struct DownloadManifest: Codable, Sendable, Equatable {
    var records: [String: DownloadRecord] = [:]

    static func load(from url: URL) -> DownloadManifest {
        guard let data = try? Data(contentsOf: url),
            let manifest = try? JSONDecoder().decode(DownloadManifest.self, from: data)
        else { return DownloadManifest() }
        return manifest
    }

    func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
