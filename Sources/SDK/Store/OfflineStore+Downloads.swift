import Foundation
import GRDB

/// What ``Downloads`` remembers of the user's lesson files, one row per lesson. Every change is one
/// transaction on the rows it concerns, so two `Downloads` (in one process or two, each with its
/// own connection) keep each other's records.
extension OfflineStore {
    /// The record of `lessonID`, if any.
    func downloadRecord(_ lessonID: String) async throws -> DownloadRecord? {
        try await writer.read { db in try DownloadRow.fetchOne(db, key: lessonID)?.record }
    }

    /// Every lesson's record.
    func downloadRecords() async throws -> [DownloadRecord] {
        try await writer.read { db in try DownloadRow.fetchAll(db).map(\.record) }
    }

    /// Saves `record`, replacing the lesson's earlier one.
    func saveDownloadRecord(_ record: DownloadRecord) async throws {
        try await writer.write { db in try DownloadRow(record).save(db) }
    }

    /// Marks a lesson's file used at `date` (the eviction order).
    func touchDownload(_ lessonID: String, at date: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE downloads SET last_used = ? WHERE lesson_id = ?", arguments: [date, lessonID])
        }
    }

    /// Marks a complete file used at `date`, and pinned when `pinned` (never unpinned): the record's
    /// other fields, a reset's mark among them, are left as they are.
    func useDownload(_ lessonID: String, pinned: Bool, at date: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE downloads SET last_used = ?, pinned = (pinned OR ?) WHERE lesson_id = ?",
                arguments: [date, pinned, lessonID])
        }
    }

    /// Clears a reset's mark on a complete file whose media the server confirmed, while it is still
    /// the record of that media (`etag`).
    func confirmDownload(_ lessonID: String, etag: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE downloads SET needs_check = 0 WHERE lesson_id = ? AND complete AND etag = ?",
                arguments: [lessonID, etag])
        }
    }

    /// Forgets a marked complete file whose media the server no longer has, while it is still the
    /// record of that file (`etag`, `pinned`, still marked): checked and deleted in one step.
    ///
    /// - Returns: whether the record was forgotten (deleting its file is the caller's then).
    func discardStaleDownload(_ record: DownloadRecord) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM downloads WHERE lesson_id = ? AND complete AND needs_check AND etag IS ? AND pinned = ?",
                arguments: [record.lessonID, record.etag, record.pinned])
            return db.changesCount > 0
        }
    }

    /// Forgets the records of `lessonIDs`.
    func removeDownloadRecords(_ lessonIDs: [String]) async throws {
        _ = try await writer.write { db in try DownloadRow.deleteAll(db, keys: lessonIDs) }
    }

    /// Forgets `records` whose files are gone, each only while it is still the record of the same
    /// complete file: a lesson downloaded again meanwhile (by another process) keeps its new record.
    func forgetDownloads(_ records: [DownloadRecord]) async throws {
        try await writer.write { db in
            for record in records {
                try db.execute(
                    sql: "DELETE FROM downloads WHERE lesson_id = ? AND complete AND etag IS ? AND pinned = ?",
                    arguments: [record.lessonID, record.etag, record.pinned])
            }
        }
    }

    /// Records `lessonID`'s file as verified and in place (of `size` bytes, used at `date`), then
    /// evicts cached files least-recently-used, never this one, until the complete files fit
    /// `budget`: one transaction.
    ///
    /// - Returns: the evicted records; deleting their files is the caller's.
    func completeDownload(_ lessonID: String, size: Int64, at date: Date, budget: Int64) async throws -> [DownloadRecord] {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE downloads SET complete = 1, size = ?, last_used = ? WHERE lesson_id = ?",
                arguments: [size, date, lessonID])
            return try Self.evict(db, toFit: budget, keeping: lessonID)
        }
    }

    /// Evicts cached files least-recently-used until the complete files fit `budget`: one transaction.
    ///
    /// - Returns: the evicted records; deleting their files is the caller's.
    func evictDownloads(toFit budget: Int64) async throws -> [DownloadRecord] {
        try await writer.write { db in try Self.evict(db, toFit: budget, keeping: nil) }
    }

    private static func evict(_ db: Database, toFit budget: Int64, keeping: String?) throws -> [DownloadRecord] {
        let complete = try DownloadRow.filter(Column("complete") == true).fetchAll(db).map(\.record)
        let items = complete.map {
            DownloadBudget.Item(lessonID: $0.lessonID, size: $0.size ?? 0, pinned: $0.pinned, lastUsed: $0.lastUsed)
        }
        let evicted = Set(DownloadBudget.evictions(items, budget: budget, keeping: keeping))
        guard !evicted.isEmpty else { return [] }
        try DownloadRow.deleteAll(db, keys: Array(evicted))
        return complete.filter { evicted.contains($0.lessonID) }
    }

    /// Adds the records that the store does not hold yet (the one-time import of a `manifest.json`
    /// written by an older SDK): one transaction.
    func importDownloadRecords(_ records: [DownloadRecord]) throws {
        try writer.write { db in
            for record in records {
                try DownloadRow(record).insert(db, onConflict: .ignore)
            }
        }
    }
}
