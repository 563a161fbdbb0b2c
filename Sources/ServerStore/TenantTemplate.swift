import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database file of a new, empty tenant: migrated once (each server's tenant registry keeps
/// one), then written as is into each new tenant's file.
///
/// A tenant that migrates its own new file pays for every migration (tables, indexes, full-text
/// tables and triggers, one transaction each) and for switching the file to WAL, a rollback-journal
/// transaction with three syncs to disk. A copy of the template costs one file write: its header
/// already says WAL, and the migrator, which still runs when the tenant's database opens, finds
/// every migration applied.
///
/// The template is migrated in a scratch file of its own that no tenant ever writes to: it holds
/// the schema and what the migrations themselves insert (the applied migrations and the change
/// log's first row), never a tenant's data.
package struct TenantTemplate: Sendable {
    /// The migrated database file's bytes.
    let contents: Data

    /// Migrates a new database in a scratch file under `directory`, keeps its bytes and removes it.
    ///
    /// - Throws: When the scratch file cannot be written or read, or a migration fails.
    package init(scratchDirectory directory: URL = FileManager.default.temporaryDirectory) throws {
        let file = directory.appendingPathComponent("edugo-tenant-template-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: file.path + suffix)
            }
        }
        var configuration = TenantDatabase.connectionConfiguration()
        // A scratch file: a crash loses nothing worth syncing.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        try TenantMigrations.migrator.migrate(queue)
        try queue.writeWithoutTransaction { db in
            // Marks the file as a WAL database in its header, as every tenant's file is.
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        // Closing the only connection checkpoints the WAL into the file.
        try queue.close()
        contents = try Data(contentsOf: file)
    }

    /// Writes the template as the new database file `url`, readable by the owner only (SQLite
    /// gives the WAL and shared-memory files it makes beside it the same mode).
    ///
    /// The file is synced before it is opened: the tenant's first commit starts its WAL, whose
    /// frames would otherwise lean, after an operating-system crash, on pages the disk never got.
    /// (SQLite syncs the folder when it starts the WAL, which keeps the file's name too.)
    ///
    /// - Throws: When a file already exists at `url` (it is never overwritten) or the file cannot be written.
    package func install(at url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        defer { try? output.close() }
        try output.write(contentsOf: contents)
        try output.synchronize()
    }
}
