import Foundation

/// Which cached files to evict so that the downloads fit a byte budget: a pure decision.
///
/// Pinned files are never evicted (they may exceed the budget on their own); cached ones go least
/// recently used first, until the total fits. `keeping` (the file just downloaded) is never chosen.
enum DownloadBudget {
    struct Item: Equatable {
        var lessonID: String
        var size: Int64
        var pinned: Bool
        var lastUsed: Date
    }

    static func evictions(_ items: [Item], budget: Int64, keeping: String?) -> [String] {
        var total = items.reduce(Int64(0)) { $0 + $1.size }
        guard total > budget else { return [] }
        var evicted: [String] = []
        let candidates = items.filter { !$0.pinned && $0.lessonID != keeping }
            .sorted { ($0.lastUsed, $0.lessonID) < ($1.lastUsed, $1.lessonID) }
        for item in candidates where total > budget {
            evicted.append(item.lessonID)
            total -= item.size
        }
        return evicted
    }
}

/// Bytes kept on disk, per course and in all.
public struct DownloadUsage: Sendable, Equatable {
    /// Bytes of complete files per course id.
    public var bytesByCourse: [String: Int64]
    /// Bytes of complete files in all.
    public var totalBytes: Int64
    /// Bytes of complete, pinned files.
    public var pinnedBytes: Int64
}

/// One downloaded (complete) lesson file.
public struct DownloadedFile: Sendable, Equatable {
    /// The lesson whose media this is.
    public var lessonID: String
    /// The lesson's course; ``Downloads/remove(courseID:)`` removes by it.
    public var courseID: String
    /// Where the file is on disk; open it from here, offline.
    public var file: URL
    /// The file's size in bytes.
    public var size: Int64
    /// The lowercase hex SHA-256 the file was verified against (the server's `ETag`).
    public var sha256: String
    /// The media type the server sent, such as `video/mp4`.
    public var contentType: String?
    /// Whether the file is kept whatever the budget (`true`), or is a cached file that may be evicted.
    public var pinned: Bool
    /// Whether the server's data was replaced since the file was verified (a reset): its media may
    /// have changed, so ``Downloads/localFile(for:)`` and ``Downloads/fetch(lessonID:courseID:pinned:onProgress:)``
    /// ask the server before they serve it again.
    public var awaitingCheck = false
}
