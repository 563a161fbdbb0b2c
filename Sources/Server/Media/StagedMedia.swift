import Foundation

/// An upload received completely: synced to disk under ``MediaDirectory/incoming``, checked and
/// hashed, not yet visible. The store publishes it (or the caller removes it).
struct StagedMedia: Sendable {
    var file: URL
    var type: MediaType
    var size: Int
    /// Lowercase hex SHA-256 of the content.
    var sha256: String
}
