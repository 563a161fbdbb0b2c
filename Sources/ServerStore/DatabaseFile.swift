import Foundation
import GRDB

/// The SQLite work of an export and an import, on database files by path: the online backup of
/// a live database into a new self-contained file, the checks an import runs on a file before it
/// installs it, and the tenant ids a registry file lists.
package enum DatabaseFile {
    /// Why a file is not a sound SQLite database.
    package enum Defect: Error, Equatable {
        /// The file is not a SQLite database at all.
        case notSQLite
        /// `PRAGMA integrity_check` found damage; the first lines it reported.
        case damaged(String)
    }

    /// Copies the database at `source` into a new file at `destination` with SQLite's online backup.
    ///
    /// The source is read in one read transaction through a read-only connection of its own, so
    /// the copy is one committed state however many writers (in this process or another) commit
    /// meanwhile. The copy is in rollback-journal mode: one file with nothing beside it.
    ///
    /// - Throws: When `source` cannot be opened (it is missing, say) or read, or `destination` cannot be written.
    package static func backup(_ source: URL, to destination: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let reader = try DatabaseQueue(path: source.path, configuration: configuration)
        defer { try? reader.close() }
        let copy = try DatabaseQueue(path: destination.path)
        try reader.read { db in
            try copy.writeWithoutTransaction { target in
                try db.backup(to: target)
                try target.execute(sql: "PRAGMA journal_mode = DELETE")
            }
        }
        try copy.close()
    }

    /// Checks that the file at `url` is a SQLite database that passes `PRAGMA integrity_check`.
    ///
    /// The file is opened read-only; a file in rollback-journal mode (as ``backup(_:to:)`` writes)
    /// gets nothing written beside it.
    ///
    /// - Returns: What is wrong with it, or `nil` when it is sound.
    package static func defect(at url: URL) -> Defect? {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            defer { try? queue.close() }
            let report = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            return report == ["ok"] ? nil : .damaged(report.prefix(3).joined(separator: "; "))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            return .notSQLite
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            return .damaged(error.message ?? "database disk image is malformed")
        } catch {
            return .damaged("\(error)")
        }
    }

    /// The tenant ids the registry database at `url` lists, sorted.
    ///
    /// - Throws: When the file cannot be read or holds no tenant table.
    package static func registryTenantIDs(at url: URL) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT id FROM tenants ORDER BY id") }
    }

    /// Clears the timeline of the tenant database at `url` (an imported copy), so the server
    /// mints a new one when it first opens it: the import replaced the tenant's history, and a
    /// device's cursor of the exported server must answer `timeline_changed`, never a page.
    /// A database from before timelines has none to clear.
    package static func forgetTimeline(at url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            guard try db.columns(in: "change_log").contains(where: { $0.name == "timeline" }) else { return }
            try db.execute(sql: "UPDATE change_log SET timeline = ''")
        }
    }
}
