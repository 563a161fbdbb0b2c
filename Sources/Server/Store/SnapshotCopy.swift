import Foundation
import GRDB

/// A saved copy of one tenant's whole database, made by ``TenantStore/saveSnapshot(to:)``.
///
/// A file-backed server keeps the copy in a file (no connection stays open for it, so snapshots
/// never spend file descriptors); an in-memory server keeps an in-memory database.
struct SnapshotCopy: Sendable {
    enum Location: Sendable {
        case file(URL)
        case memory(DatabaseQueue)
    }

    let location: Location
    /// The copy's size: the file's, or the in-memory database's pages.
    let sizeBytes: Int

    /// Removes the copy's file (an in-memory copy goes with its last reference).
    func remove() {
        guard case .file(let url) = location else { return }
        try? FileManager.default.removeItem(at: url)
    }
}
