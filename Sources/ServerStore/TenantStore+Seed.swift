import GRDB

/// The rows a seed plan makes (``Seeder``), inserted together.
package struct SeedRows: Sendable {
    package var users: [UserRecord] = []
    package var courses: [CourseRecord] = []
    package var lessons: [LessonRecord] = []
    package var enrollments: [EnrollmentRecord] = []
    package var progress: [ProgressRecord] = []

    package init(users: [UserRecord] = [], courses: [CourseRecord] = [], lessons: [LessonRecord] = [], enrollments: [EnrollmentRecord] = [], progress: [ProgressRecord] = []) {
        self.users = users
        self.courses = courses
        self.lessons = lessons
        self.enrollments = enrollments
        self.progress = progress
    }
}

extension TenantStore {
    /// Inserts a seed in one transaction: all of it or, on any error, none.
    ///
    /// Every seeded account's password is published (printed, documented, answered by
    /// `POST /__dev/tenants`), so each one's hash is also recorded as published: see
    /// ``publishedAccountCount(emailKeys:)``.
    package func insert(_ rows: SeedRows) async throws {
        try await database.writer.write { db in
            for user in rows.users {
                try user.insert(db)
                try db.execute(
                    sql: "INSERT INTO published_credentials (user_id, password_hash) VALUES (?, ?)",
                    arguments: [user.id, user.passwordHash])
            }
            for course in rows.courses { try course.insert(db) }
            for lesson in rows.lessons { try lesson.insert(db) }
            for enrollment in rows.enrollments { try enrollment.insert(db) }
            for progress in rows.progress { try progress.insert(db) }
        }
    }

    /// How many accounts anyone could sign in to with a published password: those still holding
    /// the hash their seed gave them, and those with one of `emailKeys` (the seed catalogue's
    /// addresses, for accounts seeded before hashes were recorded).
    package func publishedAccountCount(emailKeys: [String]) async throws -> Int {
        try await database.writer.read { db in
            let published = try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM users JOIN published_credentials
                    ON published_credentials.user_id = users.id AND published_credentials.password_hash = users.password_hash
                    """) ?? 0
            let known = try UserRecord.filter(emailKeys.contains(UserRecord.Columns.emailKey)).fetchCount(db)
            return published + known
        }
    }
}
