import Foundation
import GRDB

/// A saved copy of one tenant's whole database, made by ``TenantStore/saveSnapshot(to:)``.
///
/// A file-backed server keeps the copy in a file (no connection stays open for it, so snapshots
/// never spend file descriptors); an in-memory server keeps an in-memory database.
package struct SnapshotCopy: Sendable {
    package enum Location: Sendable {
        case file(URL)
        case memory(DatabaseQueue)
    }

    package let location: Location
    /// The copy's size: the file's, or the in-memory database's pages.
    package let sizeBytes: Int

    package init(location: Location, sizeBytes: Int) {
        self.location = location
        self.sizeBytes = sizeBytes
    }

    /// Removes the copy's file (an in-memory copy goes with its last reference).
    package func remove() {
        guard case .file(let url) = location else { return }
        try? FileManager.default.removeItem(at: url)
    }
}
