import GRDB

/// The versioned schema of the SDK's local database. A migration never loses a row: unsent work
/// in the outbox and the cache survive every upgrade.
enum OfflineStoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "entities") { t in
                t.column("kind", .text).notNull()
                t.column("id", .text).notNull()
                t.column("parent_id", .text)
                t.column("sort_key", .text).notNull().defaults(to: "")
                t.column("json", .blob).notNull()
                t.column("version", .integer)
                t.column("fetched_at", .datetime).notNull()
                t.primaryKey(["kind", "id"])
            }
            try db.create(index: "entities_by_parent", on: "entities", columns: ["kind", "parent_id", "sort_key"])
            try db.create(table: "http_cache") { t in
                t.primaryKey("key", .text)
                t.column("status", .integer).notNull()
                t.column("headers", .blob).notNull()
                t.column("body", .blob).notNull()
                t.column("etag", .text)
                t.column("stored_at", .datetime).notNull()
            }
            try db.create(table: "outbox") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("resource", .text).notNull().indexed()
                t.column("operation", .text).notNull()
                t.column("method", .text).notNull()
                t.column("path", .text).notNull()
                t.column("body", .blob)
                t.column("base_version", .integer)
                t.column("base_json", .blob)
                t.column("idempotency_key", .text).notNull().unique()
                t.column("created_at", .datetime).notNull()
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("next_attempt_at", .datetime)
                t.column("last_error", .text)
            }
            try db.create(table: "dead_letters") { t in
                t.primaryKey("id", .integer)
                t.column("resource", .text).notNull()
                t.column("operation", .text).notNull()
                t.column("method", .text).notNull()
                t.column("path", .text).notNull()
                t.column("body", .blob)
                t.column("base_version", .integer)
                t.column("base_json", .blob)
                t.column("idempotency_key", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.column("failed_at", .datetime).notNull()
                t.column("reason", .text).notNull()
                t.column("status", .integer)
                t.column("problem", .blob)
            }
            try db.create(table: "conflicts") { t in
                t.primaryKey("id", .integer)
                t.column("resource", .text).notNull()
                t.column("operation", .text).notNull()
                t.column("method", .text).notNull()
                t.column("path", .text).notNull()
                t.column("body", .blob)
                t.column("base_version", .integer)
                t.column("base_json", .blob)
                t.column("idempotency_key", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.column("server_version", .integer)
                t.column("server_json", .blob)
                t.column("detected_at", .datetime).notNull()
            }
            try db.create(table: "settings") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v2-http-cache-bounds") { db in
            // The persistent cache is bounded (entries and bytes, least recently used first).
            try db.alter(table: "http_cache") { t in
                t.add(column: "bytes", .integer).notNull().defaults(to: 0)
                t.add(column: "used_at", .datetime)
            }
            try db.execute(sql: "UPDATE http_cache SET bytes = length(body) + length(headers), used_at = stored_at")
            try db.create(index: "http_cache_used_at", on: "http_cache", columns: ["used_at"])
        }
        migrator.registerMigration("v3-downloads") { db in
            // The user's downloaded lesson files: one row per lesson, so two Downloads (in one
            // process or two) change their own rows instead of rewriting a shared file. Rows of
            // an older manifest.json are imported once by Downloads itself.
            try db.create(table: "downloads") { t in
                t.primaryKey("lesson_id", .text)
                t.column("course_id", .text).notNull().indexed()
                t.column("pinned", .boolean).notNull()
                t.column("etag", .text)
                t.column("size", .integer)
                t.column("content_type", .text)
                t.column("complete", .boolean).notNull()
                t.column("last_used", .datetime).notNull()
            }
        }
        migrator.registerMigration("v4-seal") { db in
            // Sign-out seals the store before destroying it: once `seal` has a row, every write to
            // the user's data fails, in this process and any other that has the file open.
            try db.create(table: "seal") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("sealed_at", .datetime).notNull()
            }
            for table in ["entities", "http_cache", "outbox", "dead_letters", "conflicts", "settings", "downloads"] {
                try sealTriggers(db, on: table)
            }
        }
        migrator.registerMigration("v5-queued-writes") { db in try moveOutboxToQueuedWrites(db) }
        migrator.registerMigration("v6-download-checks") { db in
            // A reset (the server's data replaced) marks every downloaded file for a check of its
            // media against the server before it is served as current again.
            try db.alter(table: "downloads") { t in
                t.add(column: "needs_check", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v7-outdated-answers") { db in
            // A pull that removed a record after a write of it went out marks the write: whatever
            // its answer says (a replayed one, a late one) is older than the removal.
            try db.alter(table: "queued_writes") { t in
                t.add(column: "outdated_by_pull", .boolean).notNull().defaults(to: false)
            }
        }
        return migrator
    }

    /// Every table of the user's data, which a sealed store refuses to change. A migration that
    /// adds a table adds its triggers too (``sealTriggers(_:on:)``).
    static let sealedTables = ["entities", "http_cache", "queued_writes", "settings", "downloads"]

    /// Makes `table` refuse every change once the store is sealed.
    private static func sealTriggers(_ db: Database, on table: String) throws {
        for operation in ["INSERT", "UPDATE", "DELETE"] {
            try db.execute(sql: """
                CREATE TRIGGER "\(table)_sealed_\(operation.lowercased())" BEFORE \(operation) ON "\(table)"
                WHEN EXISTS (SELECT 1 FROM seal) BEGIN SELECT RAISE(ABORT, 'store_sealed'); END
                """)
        }
    }

    /// One table for every write the outbox holds, whatever its state (``QueuedWrite``): the rows
    /// of `outbox` (queued), `dead_letters` and `conflicts` move into `queued_writes` with their
    /// ids (their places in the queue), keys and dates, and the three tables are dropped. Ids stay
    /// unique and are never reused: a dead letter or a conflict left the outbox under its id, and
    /// the new table's id sequence continues the outbox's. The migrator runs it in one transaction.
    private static func moveOutboxToQueuedWrites(_ db: Database) throws {
        try db.create(table: "queued_writes") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("state", .text).notNull().defaults(to: "queued")
                .check(sql: "state IN ('queued', 'in_flight', 'dead_letter', 'conflict')")
            t.column("resource", .text).notNull().indexed()
            t.column("operation", .text).notNull()
            t.column("method", .text).notNull()
            t.column("path", .text).notNull()
            t.column("body", .blob)
            t.column("base_version", .integer)
            t.column("base_json", .blob)
            t.column("idempotency_key", .text).notNull().unique()
            t.column("created_at", .datetime).notNull()
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("next_attempt_at", .datetime)
            t.column("last_error", .text)
            // A dead letter: when and why the server refused it.
            t.column("failed_at", .datetime)
            t.column("reason", .text)
            t.column("status", .integer)
            t.column("problem", .blob)
            // A conflict: the server's state when it was detected.
            t.column("server_version", .integer)
            t.column("server_json", .blob)
            t.column("detected_at", .datetime)
            t.check(sql: "state <> 'dead_letter' OR (failed_at IS NOT NULL AND reason IS NOT NULL)")
            t.check(sql: "state <> 'conflict' OR detected_at IS NOT NULL")
        }
        // The outbox's id sequence goes on: an id the app was given (a sent write, a discarded
        // dead letter) never names another write.
        try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) SELECT 'queued_writes', seq FROM sqlite_sequence WHERE name = 'outbox'")
        let write = "resource, operation, method, path, body, base_version, base_json, idempotency_key, created_at"
        try db.execute(sql: """
            INSERT INTO queued_writes (id, state, \(write), attempts, next_attempt_at, last_error)
            SELECT id, 'queued', \(write), attempts, next_attempt_at, last_error FROM outbox ORDER BY id
            """)
        // A dead letter or a conflict was sent at least once: counted as attempted, so no later
        // write is merged into it. An id already taken (only a hand-edited store has one) gets a new one.
        try db.execute(sql: """
            INSERT INTO queued_writes (id, state, \(write), attempts, failed_at, reason, status, problem)
            SELECT CASE WHEN id IN (SELECT id FROM queued_writes) THEN NULL ELSE id END, 'dead_letter', \(write), 1,
                failed_at, reason, status, problem
            FROM dead_letters ORDER BY id
            """)
        try db.execute(sql: """
            INSERT INTO queued_writes (id, state, \(write), attempts, server_version, server_json, detected_at)
            SELECT CASE WHEN id IN (SELECT id FROM queued_writes) THEN NULL ELSE id END, 'conflict', \(write), 1,
                server_version, server_json, detected_at
            FROM conflicts ORDER BY id
            """)
        for table in ["outbox", "dead_letters", "conflicts"] {
            try db.drop(table: table)
        }
        try sealTriggers(db, on: "queued_writes")
    }
}
