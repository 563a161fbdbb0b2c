import Foundation
import GRDB

/// The tenant's change sequence: one row per committed change of a synced entity, written by
/// triggers in the transaction that makes the change, so no write path — a store method, a
/// cascade, a seed — can commit without it.
///
/// `seq` is `AUTOINCREMENT`: it only grows, and a pruned number is never handed out again.
/// `changed_at` is the server's clock (``sqlFunctionName``, the movable clock in dev mode), which
/// the retention window is measured on.
package enum ChangeLog {
    /// Tables whose rows the feed carries, with the entity each row is (``FeedEntity/all``).
    package static var syncedTables: [String: FeedEntity] {
        Dictionary(uniqueKeysWithValues: FeedEntity.all.map { ($0.table, $0) })
    }

    /// Tables that hold no synced state (sessions, tokens, idempotency records, the log itself).
    /// A table in neither list fails the schema test until someone decides which it is.
    package static let unsyncedTables: Set<String> = Set([
        "sessions", "refresh_tokens", "email_tokens", "idempotency_keys", "changes", "change_log", "published_credentials",
        "maintenance_runs",
        "sqlite_sequence", "grdb_migrations",
    ]).union(fullTextIndex("courses_search")).union(fullTextIndex("users_search"))

    /// An FTS5 index over a synced table and its shadow tables: derived from the table, which
    /// is what the feed carries.
    private static func fullTextIndex(_ name: String) -> Set<String> {
        Set([name] + ["data", "idx", "docsize", "config"].map { "\(name)_\($0)" })
    }

    /// The SQL function that answers the server's clock as seconds since 1970.
    package static let sqlFunctionName = "edugo_now"

    /// Installs ``sqlFunctionName`` on a connection, reading `now`.
    package static func installClock(on db: Database, now: @escaping @Sendable () -> Date) {
        db.add(function: DatabaseFunction(sqlFunctionName, argumentCount: 0, pure: false) { _ in
            now().timeIntervalSince1970
        })
    }

    /// Creates the log and its retention marker.
    ///
    /// Until `v14-feed-entities` this migration also created the triggers that fill the log, and
    /// `v11-draft-reassignment-audience` replaced the course's; both now install nothing, and
    /// ``FeedTriggers`` installs the triggers from the entities' descriptors in `v14`. A database
    /// that ran them keeps their triggers until `v14` replaces them; a new one runs no write
    /// between `v4` and `v14`, so it logs the same changes.
    ///
    /// `draft_of` marks a change made entirely inside a draft course (before and after): only its
    /// teacher and admins hear of it, so the feed never tells a student a draft's ids.
    package static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE changes (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                course_id TEXT,
                user_id TEXT,
                draft_of TEXT,
                changed_at DOUBLE NOT NULL
            );
            CREATE INDEX changes_by_time ON changes(changed_at);
            CREATE TABLE change_log (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                pruned_through INTEGER NOT NULL
            );
            INSERT INTO change_log (id, pruned_through) VALUES (1, 0);
            """)
    }
}
