import Foundation

/// An upload received completely: synced to disk under ``MediaDirectory/incoming``, checked and
/// hashed, not yet visible. The store publishes it (or the caller removes it).
package struct StagedMedia: Sendable {
    package var file: URL
    package var type: MediaType
    package var size: Int
    /// Lowercase hex SHA-256 of the content.
    package var sha256: String

    package init(file: URL, type: MediaType, size: Int, sha256: String) {
        self.file = file
        self.type = type
        self.size = size
        self.sha256 = sha256
    }
}
