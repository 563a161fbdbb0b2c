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
    /// The kinds of entity the feed carries, in base-sync order (a course before its lessons).
    package enum Entity: String, CaseIterable, Sendable {
        case course, lesson, enrollment, progress, profile
    }

    /// Tables whose rows the feed carries, with the entity each row is.
    package static let syncedTables: [String: Entity] = [
        "courses": .course, "lessons": .lesson, "enrollments": .enrollment, "progress": .progress, "users": .profile,
    ]

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

    /// Replaces the triggers of a course's update with ``createCourseUpdateTriggers(_:)``'s: before
    /// it, a draft handed to another teacher (still a draft) logged the course, its lessons, its
    /// enrollments and its progress as changes every caller heard.
    package static func migrateDraftReassignment(_ db: Database) throws {
        try db.execute(sql: "DROP TRIGGER IF EXISTS courses_change_update; DROP TRIGGER IF EXISTS courses_visibility_change")
        try createCourseUpdateTriggers(db)
    }

    /// The triggers that log a course's update and what its visibility decides (its lessons, its
    /// enrollments and its progress).
    ///
    /// A change that stays inside a draft is heard by the draft's teacher and admins only. A draft
    /// handed to another teacher (still a draft) is such a change for both teachers: it is logged
    /// twice, once with `draft_of` naming the old teacher (who hears of losing it) and once naming
    /// the new one (who hears of getting it); of its enrollments and progress only the rows of
    /// those two teachers are logged, as nobody else sees a draft's rows before or after.
    static func createCourseUpdateTriggers(_ db: Database) throws {
        let now = "\(sqlFunctionName)()"
        let insert = "INSERT INTO changes (entity, entity_id, course_id, user_id, draft_of, changed_at)"
        let staysDraft = "OLD.published = 0 AND NEW.published = 0"
        try db.execute(sql: """
            CREATE TRIGGER courses_change_update AFTER UPDATE ON courses BEGIN
                \(insert) VALUES ('course', NEW.id, NEW.id, NULL, CASE WHEN \(staysDraft) THEN NEW.teacher_id END, \(now));
                \(insert) SELECT 'course', NEW.id, NEW.id, NULL, OLD.teacher_id, \(now)
                    WHERE \(staysDraft) AND OLD.teacher_id IS NOT NEW.teacher_id;
            END;
            -- Who may see a course's lessons, enrollments and progress follows the course: when it
            -- is published, unpublished or handed to another teacher, they change for the feed too.
            CREATE TRIGGER courses_visibility_change AFTER UPDATE OF published, teacher_id ON courses
            WHEN OLD.published IS NOT NEW.published OR OLD.teacher_id IS NOT NEW.teacher_id BEGIN
                \(insert) SELECT 'lesson', id, course_id, NULL, CASE WHEN \(staysDraft) THEN NEW.teacher_id END, \(now)
                    FROM lessons WHERE course_id = NEW.id;
                \(insert) SELECT 'lesson', id, course_id, NULL, OLD.teacher_id, \(now)
                    FROM lessons WHERE course_id = NEW.id AND \(staysDraft);
                \(insert) SELECT 'enrollment', course_id, course_id, user_id, NULL, \(now) FROM enrollments
                    WHERE course_id = NEW.id AND NOT (\(staysDraft) AND user_id NOT IN (OLD.teacher_id, NEW.teacher_id));
                \(insert) SELECT 'progress', lesson_id, course_id, user_id, NULL, \(now) FROM progress
                    WHERE course_id = NEW.id AND NOT (\(staysDraft) AND user_id NOT IN (OLD.teacher_id, NEW.teacher_id));
            END;
            """)
    }

    /// Creates the log, its retention marker and the triggers that fill it.
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
        let now = "\(sqlFunctionName)()"
        let insert = "INSERT INTO changes (entity, entity_id, course_id, user_id, draft_of, changed_at)"
        func draftOf(_ row: String) -> String {
            "(SELECT CASE WHEN published = 0 THEN teacher_id END FROM courses WHERE id = \(row).course_id)"
        }
        try db.execute(sql: """
            CREATE TRIGGER courses_change_insert AFTER INSERT ON courses BEGIN
                \(insert) VALUES ('course', NEW.id, NEW.id, NULL, CASE WHEN NEW.published = 0 THEN NEW.teacher_id END, \(now));
            END;
            -- A course's lessons go before it (not by the cascade after it), so that their changes
            -- still see whether the course was a draft.
            CREATE TRIGGER courses_delete_lessons BEFORE DELETE ON courses BEGIN
                DELETE FROM lessons WHERE course_id = OLD.id;
            END;
            CREATE TRIGGER courses_change_delete AFTER DELETE ON courses BEGIN
                \(insert) VALUES ('course', OLD.id, OLD.id, NULL, CASE WHEN OLD.published = 0 THEN OLD.teacher_id END, \(now));
            END;
            """)
        try createCourseUpdateTriggers(db)
        let rowTables: [(table: String, entity: Entity, updateOf: String?, values: (String) -> String)] = [
            ("lessons", .lesson, nil, { "\($0).id, \($0).course_id, NULL, \(draftOf($0))" }),
            ("enrollments", .enrollment, nil, { "\($0).course_id, \($0).course_id, \($0).user_id, NULL" }),
            ("progress", .progress, nil, { "\($0).lesson_id, \($0).course_id, \($0).user_id, NULL" }),
            // A password change is no change of the profile.
            ("users", .profile, "email, first_name, last_name, role, email_verified, version", { "\($0).id, NULL, \($0).id, NULL" }),
        ]
        for shape in rowTables {
            let events = [("insert", "INSERT", "NEW"), ("update", "UPDATE" + (shape.updateOf.map { " OF \($0)" } ?? ""), "NEW"), ("delete", "DELETE", "OLD")]
            for (name, event, row) in events {
                try db.execute(sql: """
                    CREATE TRIGGER \(shape.table)_change_\(name) AFTER \(event) ON \(shape.table) BEGIN
                        \(insert) VALUES ('\(shape.entity.rawValue)', \(shape.values(row)), \(now));
                    END;
                    """)
            }
        }
    }
}
