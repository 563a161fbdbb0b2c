import GRDB

/// The versioned schema of one tenant's database.
package enum TenantMigrations {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "users") { t in
                t.primaryKey("id", .text)
                t.column("email", .text).notNull()
                t.column("email_key", .text).notNull().unique()
                t.column("password_hash", .text).notNull()
                t.column("first_name", .text).notNull()
                t.column("last_name", .text).notNull()
                t.column("role", .text).notNull().check { ["student", "teacher", "admin"].contains($0) }
                t.column("email_verified", .boolean).notNull().defaults(to: false)
                t.column("search_text", .text).notNull()
                t.column("version", .integer).notNull().defaults(to: 1)
                t.column("created_at", .datetime).notNull()
                t.column("updated_at", .datetime).notNull()
            }
            try db.create(table: "sessions") { t in
                t.primaryKey("id", .text)
                t.column("user_id", .text).notNull().indexed().references("users", onDelete: .cascade)
                t.column("created_at", .datetime).notNull()
                t.column("revoked_at", .datetime)
                t.column("revoke_reason", .text)
            }
            try db.create(table: "refresh_tokens") { t in
                t.primaryKey("token_hash", .text)
                t.column("session_id", .text).notNull().indexed().references("sessions", onDelete: .cascade)
                t.column("issued_at", .datetime).notNull()
                t.column("expires_at", .datetime).notNull()
                t.column("used_at", .datetime)
            }
            try db.create(table: "email_tokens") { t in
                t.primaryKey("token_hash", .text)
                t.column("user_id", .text).notNull().indexed().references("users", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.column("expires_at", .datetime).notNull()
                t.column("used_at", .datetime)
            }
            try db.create(table: "courses") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull()
                t.column("description", .text).notNull()
                t.column("category", .text).notNull()
                t.column("thumbnail_url", .text)
                t.column("published", .boolean).notNull().defaults(to: false)
                t.column("teacher_id", .text).notNull().indexed().references("users", onDelete: .restrict)
                t.column("search_text", .text).notNull()
                t.column("version", .integer).notNull().defaults(to: 1)
                t.column("created_at", .datetime).notNull()
                t.column("updated_at", .datetime).notNull()
            }
            try db.create(index: "courses_on_category", on: "courses", columns: ["category", "created_at"])
            try db.create(table: "lessons") { t in
                t.primaryKey("id", .text)
                t.column("course_id", .text).notNull().indexed().references("courses", onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("content", .text).notNull()
                t.column("order", .integer).notNull()
                t.column("duration_minutes", .integer).notNull()
                t.column("video_url", .text)
                t.column("version", .integer).notNull().defaults(to: 1)
                t.column("created_at", .datetime).notNull()
                t.column("updated_at", .datetime).notNull()
            }
            try db.create(table: "enrollments") { t in
                t.column("course_id", .text).notNull().indexed().references("courses", onDelete: .cascade)
                t.column("user_id", .text).notNull().indexed().references("users", onDelete: .cascade)
                t.column("enrolled_at", .datetime).notNull()
                t.primaryKey(["course_id", "user_id"])
            }
            try db.create(table: "progress") { t in
                t.column("user_id", .text).notNull().indexed().references("users", onDelete: .cascade)
                t.column("lesson_id", .text).notNull().indexed().references("lessons", onDelete: .cascade)
                t.column("course_id", .text).notNull().indexed().references("courses", onDelete: .cascade)
                t.column("completed", .boolean).notNull().defaults(to: false)
                t.column("completed_at", .datetime)
                t.column("watched_seconds", .integer).notNull().defaults(to: 0)
                t.column("version", .integer).notNull().defaults(to: 1)
                t.column("updated_at", .datetime).notNull()
                t.primaryKey(["user_id", "lesson_id"])
            }
            try db.create(table: "idempotency_keys") { t in
                t.column("user_id", .text).notNull()
                t.column("key", .text).notNull()
                t.column("fingerprint", .text).notNull()
                t.column("status", .integer)
                t.column("headers", .text)
                t.column("body", .blob)
                t.column("created_at", .datetime).notNull().indexed()
                t.primaryKey(["user_id", "key"])
            }
        }
        migrator.registerMigration("v2-media") { db in
            try db.alter(table: "lessons") { t in
                t.add(column: "media_content_type", .text)
                t.add(column: "media_size", .integer)
                t.add(column: "media_sha256", .text)
                t.add(column: "media_updated_at", .datetime)
                t.add(column: "media_file", .text)
            }
        }
        migrator.registerMigration(ListIndexesMigration.identifier, migrate: ListIndexesMigration.migrate)
        migrator.registerMigration("v4-change-log", migrate: ChangeLog.migrate)
        // The password hash each seeded account was given: a seed's passwords are published, and
        // an account still holding its seeded hash is one anyone can sign in to.
        migrator.registerMigration("v5-published-credentials") { db in
            try db.create(table: "published_credentials") { t in
                t.primaryKey("user_id", .text).references("users", onDelete: .cascade)
                t.column("password_hash", .text).notNull()
            }
        }
        migrator.registerMigration(SessionPruning.migrationIdentifier, migrate: SessionPruning.migrate)
        // Each verification token carries the registration it confirms (``EmailTokenRecord``).
        migrator.registerMigration("v7-registration-tokens") { db in
            try db.alter(table: "email_tokens") { t in
                t.add(column: "password_hash", .text)
                t.add(column: "first_name", .text)
                t.add(column: "last_name", .text)
                t.add(column: "registered_at", .datetime)
            }
        }
        migrator.registerMigration("v8-search-prefixes", migrate: SearchIndexMigration.addCoursePrefixes)
        migrator.registerMigration("v9-search-merging", migrate: SearchIndexMigration.mergeSooner)
        migrator.registerMigration("v10-progress-order", migrate: ListIndexesMigration.addProgressIndex)
        // Replaced the course's triggers; `v14-feed-entities` installs them now (``ChangeLog/migrate(_:)``).
        migrator.registerMigration("v11-draft-reassignment-audience") { _ in }
        // The password a seed published, beside its hash: an account reset to it is still found.
        migrator.registerMigration("v12-published-passwords") { db in
            try db.alter(table: "published_credentials") { t in t.add(column: "password", .text) }
        }
        migrator.registerMigration("v13-timeline", migrate: ChangeTimeline.migrate)
        // The change log's triggers, generated from the synced entities' descriptors. A synced
        // resource added later creates its table and calls `FeedTriggers.migrate` in its own migration.
        migrator.registerMigration("v14-feed-entities") { db in try FeedTriggers.migrate(db) }
        // Each logged change names its operation (the dev console's change log shows it); the
        // triggers are generated again to write it. Entries logged before have none.
        migrator.registerMigration("v15-change-operations") { db in
            try db.alter(table: "changes") { t in t.add(column: "op", .text) }
            try FeedTriggers.migrate(db)
        }
        return migrator
    }
}
