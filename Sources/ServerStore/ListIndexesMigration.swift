import GRDB

/// The `v3-list-indexes` migration: an index for every order and filter a list offers, so a
/// page of 20 is an index seek of 20 rows whatever the table holds (STYLE.md, principle 12),
/// and a full-text index for every search (``SearchIndexMigration``).
///
/// Each list's statement is built by its query type (``CourseListQuery``, ``UserListQuery``,
/// ``EnrollmentListQuery``, ``LessonListQuery``) and its plan is checked by a store test that
/// fails when the index it names is missing. Lists order by a timestamp and then an id, both in
/// the same direction, so one index serves a page forwards or backwards.
package enum ListIndexesMigration {
    package static let identifier = "v3-list-indexes"

    /// The list indexes, by name: the plan tests drop them one by one.
    package static let indexes: [(name: String, table: String, columns: String)] = [
        // Courses, per role: students see published (published = 1), teachers published plus their
        // own drafts (two seeks merged: published = 1, and teacher_id = ? AND published = 0),
        // admins everything; each optionally of one category.
        ("courses_by_published_created", "courses", "published, created_at, id"),
        ("courses_by_published_category_created", "courses", "published, category, created_at, id"),
        ("courses_by_teacher_published_created", "courses", "teacher_id, published, created_at, id"),
        ("courses_by_created", "courses", "created_at, id"),
        ("courses_by_category_created", "courses", "category, created_at, id"),
        // Users, oldest first, optionally of one role.
        ("users_by_created", "users", "created_at, id"),
        ("users_by_role_created", "users", "role, created_at, id"),
        // A course's lessons in order; a learner's enrollments, newest first.
        ("lessons_by_course_order", "lessons", "course_id, \"order\", created_at, id"),
        ("enrollments_by_user_enrolled", "enrollments", "user_id, enrolled_at, course_id"),
    ]

    /// Indexes of `v1` that one of ``indexes`` begins with: the longer index serves their
    /// lookups (foreign-key checks included), so keeping them would only slow writes.
    package static let superseded = [
        "courses_on_category", "courses_on_teacher_id", "lessons_on_course_id",
        "enrollments_on_user_id",
    ]

    /// A learner's progress in one course, in its order (``ProgressListQuery``), from the
    /// `v10-progress-order` migration on. Before it, the read sought every learner's progress in
    /// the course (`progress_on_course_id`) and sorted the caller's.
    package static let progressIndex = (
        name: "progress_by_user_course_updated", table: "progress", columns: "user_id, course_id, updated_at, lesson_id"
    )

    /// The `v10-progress-order` migration: ``progressIndex``.
    package static func addProgressIndex(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX \(progressIndex.name) ON \(progressIndex.table)(\(progressIndex.columns))")
    }

    package static func migrate(_ db: Database) throws {
        for index in indexes {
            try db.execute(sql: "CREATE INDEX \(index.name) ON \(index.table)(\(index.columns))")
        }
        for name in superseded {
            try db.execute(sql: "DROP INDEX \(name)")
        }
        try SearchIndexMigration.migrate(db)
    }
}
