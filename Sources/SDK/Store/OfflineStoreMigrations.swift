import GRDB

/// The versioned schema of the SDK's local database. Migrations only ever add: unsent work in
/// the outbox and the cache survive every upgrade.
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
            for table in sealedTables {
                for operation in ["INSERT", "UPDATE", "DELETE"] {
                    try db.execute(sql: """
                        CREATE TRIGGER "\(table)_sealed_\(operation.lowercased())" BEFORE \(operation) ON "\(table)"
                        WHEN EXISTS (SELECT 1 FROM seal) BEGIN SELECT RAISE(ABORT, 'store_sealed'); END
                        """)
                }
            }
        }
        return migrator
    }

    /// Every table of the user's data, which a sealed store refuses to change. A migration that
    /// adds a table adds its triggers too.
    static let sealedTables = ["entities", "http_cache", "outbox", "dead_letters", "conflicts", "settings", "downloads"]
}
