import GRDB

/// The rows a seed plan makes (``Seeder``), inserted together.
struct SeedRows: Sendable {
    var users: [UserRecord] = []
    var courses: [CourseRecord] = []
    var lessons: [LessonRecord] = []
    var enrollments: [EnrollmentRecord] = []
    var progress: [ProgressRecord] = []
}

extension TenantStore {
    /// Inserts a seed in one transaction: all of it or, on any error, none.
    func insert(_ rows: SeedRows) async throws {
        try await database.writer.write { db in
            for user in rows.users { try user.insert(db) }
            for course in rows.courses { try course.insert(db) }
            for lesson in rows.lessons { try lesson.insert(db) }
            for enrollment in rows.enrollments { try enrollment.insert(db) }
            for progress in rows.progress { try progress.insert(db) }
        }
    }

    /// How many of the accounts with these email keys exist (the demo-account check at startup).
    func accountCount(emailKeys: [String]) async throws -> Int {
        try await database.writer.read { db in
            try UserRecord.filter(emailKeys.contains(UserRecord.Columns.emailKey)).fetchCount(db)
        }
    }
}
