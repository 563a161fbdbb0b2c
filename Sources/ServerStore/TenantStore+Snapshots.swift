import Foundation
import GRDB

extension TenantStore {
    /// Copies the tenant's whole database with SQLite's online backup.
    ///
    /// The copy is read in one read transaction, so it is one committed state however many
    /// requests write meanwhile. A file copy is written next to `file` and renamed into place,
    /// so a failed save leaves no file behind under the snapshot's name.
    ///
    /// - Parameter file: Where the copy goes; `nil` keeps it in memory.
    package func saveSnapshot(to file: URL?) async throws -> SnapshotCopy {
        guard let file else {
            let copy = try DatabaseQueue()
            try await database.writer.read { source in
                try copy.writeWithoutTransaction { destination in try source.backup(to: destination) }
            }
            let size = try await copy.read { db in try Self.pageBytes(db) }
            return SnapshotCopy(location: .memory(copy), sizeBytes: size)
        }
        let partial = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).partial")
        try? FileManager.default.removeItem(at: partial)
        do {
            // Made 0600 before SQLite opens it (SQLite keeps an existing file's mode): a snapshot
            // holds password and session hashes.
            guard FileManager.default.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
            let copy = try DatabaseQueue(path: partial.path)
            try await database.writer.read { source in
                try copy.writeWithoutTransaction { destination in
                    try source.backup(to: destination)
                    // The copied header says WAL, as the tenant's file does; a snapshot is one
                    // file with nothing beside it.
                    try destination.execute(sql: "PRAGMA journal_mode = DELETE")
                }
            }
            try copy.close()
            // A new id names the file: nothing is there to replace.
            try FileManager.default.moveItem(at: partial, to: file)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        return SnapshotCopy(location: .file(file), sizeBytes: size)
    }

    /// Puts `copy` back as the tenant's whole database, atomically.
    ///
    /// The backup runs into the tenant's writer connection and commits as one write transaction:
    /// a reader holding a transaction keeps seeing the state before, every later one sees the
    /// copy. A backup does not pass through transaction observers, so the tenant's live-session
    /// cache and list totals are emptied here (after the copy is visible); telling the live event
    /// streams is the caller's. The restored data gets a new ``ChangeTimeline``, so every cursor
    /// minted before is expired (`timeline_changed`) instead of read against the snapshot's log.
    ///
    /// - Throws: ``StoreError/snapshotNotFound`` when the copy's file is gone (deleted meanwhile).
    package func restoreSnapshot(_ copy: SnapshotCopy) async throws {
        let source: DatabaseQueue
        switch copy.location {
        case .memory(let queue):
            source = queue
        case .file(let url):
            var configuration = Configuration()
            configuration.readonly = true
            do {
                source = try DatabaseQueue(path: url.path, configuration: configuration)
            } catch {
                throw StoreError.snapshotNotFound
            }
        }
        defer { if case .file = copy.location { try? source.close() } }
        // The restored data starts a new timeline, in the same step that makes it visible: the
        // copy is staged in memory with a new timeline id, then backed up into the tenant's
        // database, so no reader ever sees the snapshot's data under the snapshot's id.
        let now = try await database.writer.read { db in
            try Double.fetchOne(db, sql: "SELECT \(ChangeLog.sqlFunctionName)()") ?? Date().timeIntervalSince1970
        }
        let staged = try DatabaseQueue()
        try await source.read { snapshot in try staged.writeWithoutTransaction { target in try snapshot.backup(to: target) } }
        try await staged.write { db in try ChangeTimeline.mint(db, now: Date(timeIntervalSince1970: now)) }
        // Not while a request is between transactions that must see the same data (an
        // idempotent write's claim, write and answer): it would straddle the restore.
        try await database.replacements.replacing {
            try await database.writer.writeWithoutTransaction { destination in
                try staged.read { db in try db.backup(to: destination) }
            }
            database.liveSessions.invalidate()
            database.listTotals.invalidate()
            database.caches.changeDependent?.invalidate()
        }
    }

    private static func pageBytes(_ db: Database) throws -> Int {
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        return pages * pageSize
    }
}
