import Foundation
import GRDB

/// Which history of a tenant's data the change feed's positions belong to.
///
/// A sequence number names a position only on the history it was read from. A tenant database
/// gets a random timeline id when it is first opened, and a new one whenever its contents are
/// replaced by anything but its own writes: a snapshot restored, an import, a tenant created
/// again under an id that existed before (a new database, so a new id). Within one timeline the
/// change sequence only grows and never hands a number out twice; a cursor of another timeline is
/// expired (`410 cursor_expired`, reason `timeline_changed`), never read from the old position.
///
/// The id lives in the change log's one-row table, so a snapshot or an export carries the id of
/// the history it copied, and replacing the data replaces the id in the same step.
package struct ChangeTimeline: Sendable, Equatable {
    /// 32 lowercase hexadecimal digits (128 random bits).
    package var id: String
    /// When this timeline started (the server's clock); `nil` for one minted before this was kept.
    package var startedAt: Date?

    package init(id: String, startedAt: Date?) {
        self.id = id
        self.startedAt = startedAt
    }

    /// Whether `text` has the form of a timeline id.
    package static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The SQL that mints a new id (SQLite's cryptographic `randomblob`).
    static let mintSQL = "UPDATE change_log SET timeline = lower(hex(randomblob(16))), timeline_started_at = ?"

    /// Adds the timeline to the change log's row, empty: a database gets its id when it is first
    /// opened (``mintIfMissing(_:now:)``), so a template copied into many tenants shares none.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE change_log ADD COLUMN timeline TEXT NOT NULL DEFAULT '';
            ALTER TABLE change_log ADD COLUMN timeline_started_at DOUBLE;
            """)
    }

    /// The database's timeline.
    static func current(_ db: Database) throws -> ChangeTimeline {
        let row = try Row.fetchOne(db, sql: "SELECT timeline, timeline_started_at FROM change_log")
        let id: String = row?["timeline"] ?? ""
        let started: Double? = row?["timeline_started_at"]
        return ChangeTimeline(id: id, startedAt: started.map(Date.init(timeIntervalSince1970:)))
    }

    /// Gives the database a new timeline.
    static func mint(_ db: Database, now: Date) throws {
        try db.execute(sql: mintSQL, arguments: [now.timeIntervalSince1970])
    }

    /// Gives a database that has no timeline yet (new, or imported) its first one; checked and
    /// written in one transaction.
    static func mintIfMissing(_ writer: any DatabaseWriter, now: Date) throws {
        try writer.write { db in
            guard try current(db).id.isEmpty else { return }
            try mint(db, now: now)
        }
    }
}

extension TenantStore {
    /// The tenant's current timeline.
    package func timeline() async throws -> ChangeTimeline {
        try await database.writer.read { db in try ChangeTimeline.current(db) }
    }
}
