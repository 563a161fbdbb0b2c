import GRDB

/// The rows a seed description makes (``Seeder``), applied together.
///
/// A user's `passwordHash` may be empty when the seeder expected the account to exist already;
/// ``TenantStore/insertMissing(_:)`` then asks for its hash instead of inserting it.
package struct SeedRows: Sendable {
    package var users: [UserRecord] = []
    package var courses: [CourseRecord] = []
    package var lessons: [LessonRecord] = []
    package var enrollments: [EnrollmentRecord] = []
    package var progress: [ProgressRecord] = []
    /// The password each seeded account (by ``UserRecord/id``) is published with, kept beside its
    /// hash so that an account later reset to the same password is still found.
    package var publishedPasswords: [String: String] = [:]

    package init() {}
}

/// What ``TenantStore/insertMissing(_:)`` did.
package enum SeedOutcome: Sendable, Equatable {
    /// Committed: how many rows of each kind were new.
    case inserted(users: Int, courses: Int, lessons: Int, enrollments: Int, progress: Int)
    /// Nothing written: these accounts (email keys) are missing and came without a password hash.
    case needsPasswordHashes(Set<String>)
}

extension TenantStore {
    /// The email keys among `emailKeys` that no account has.
    package func missingAccounts(emailKeys: [String]) async throws -> Set<String> {
        try await database.writer.read { db in
            let existing = try String.fetchSet(
                db, UserRecord.select(UserRecord.Columns.emailKey).filter(emailKeys.contains(UserRecord.Columns.emailKey)))
            return Set(emailKeys).subtracting(existing)
        }
    }

    /// Inserts what of a seed does not exist yet, in one transaction: all of it or, on any
    /// error, none. What exists is left as it is (a changed password, an edited course).
    ///
    /// An account exists when one has its email key; a course when one has its id or its title
    /// (a tenant seeded before ids were derived); a lesson when one has its id or the same title
    /// in the same course; enrollments and progress by their primary keys. References to a
    /// seeded account or course that already existed under another id are pointed at it.
    ///
    /// Every seeded account's password is published (printed, documented, answered by
    /// `POST /__dev/tenants`), so each new one's hash is also recorded as published: see
    /// ``publishedAccountCount(emailKeys:)``.
    package func insertMissing(_ rows: SeedRows) async throws -> SeedOutcome {
        do {
            return try await database.writer.write { db in try Self.insertMissing(rows, db) }
        } catch let missing as MissingPasswordHashes {
            return .needsPasswordHashes(missing.emailKeys)
        }
    }

    private struct MissingPasswordHashes: Error {
        var emailKeys: Set<String>
    }

    private static func insertMissing(_ rows: SeedRows, _ db: Database) throws -> SeedOutcome {
        var userIDs: [String: String] = [:]
        var unhashed: Set<String> = []
        var counts = (users: 0, courses: 0, lessons: 0, enrollments: 0, progress: 0)
        // Each look-up runs once per seeded row: its statement is prepared once per connection.
        let userByEmailKey = try db.cachedStatement(sql: "SELECT id FROM users WHERE email_key = ?")
        let courseByID = try db.cachedStatement(sql: "SELECT id FROM courses WHERE id = ?")
        let courseByTitle = try db.cachedStatement(sql: "SELECT id FROM courses WHERE title = ? ORDER BY created_at LIMIT 1")
        let lessonByID = try db.cachedStatement(sql: "SELECT id FROM lessons WHERE id = ?")
        let lessonByTitle = try db.cachedStatement(
            sql: "SELECT id FROM lessons WHERE course_id = ? AND title = ? ORDER BY \"order\" LIMIT 1")
        let enrollmentByKey = try db.cachedStatement(sql: "SELECT 1 FROM enrollments WHERE course_id = ? AND user_id = ?")
        let progressByKey = try db.cachedStatement(sql: "SELECT 1 FROM progress WHERE user_id = ? AND lesson_id = ?")
        for user in rows.users {
            if let existing = try String.fetchOne(userByEmailKey, arguments: [user.emailKey]) {
                userIDs[user.id] = existing
                continue
            }
            guard !user.passwordHash.isEmpty else {
                unhashed.insert(user.emailKey)
                continue
            }
            try user.insert(db)
            try db.execute(
                sql: "INSERT INTO published_credentials (user_id, password_hash, password) VALUES (?, ?, ?)",
                arguments: [user.id, user.passwordHash, rows.publishedPasswords[user.id]])
            counts.users += 1
        }
        if !unhashed.isEmpty { throw MissingPasswordHashes(emailKeys: unhashed) }

        // Matches by title are looked up before anything is inserted, so they only find rows
        // that existed before this seed (two seeded courses may share a title).
        var courseIDs: [String: String] = [:]
        var newCourses: [CourseRecord] = []
        for var course in rows.courses {
            if try String.fetchOne(courseByID, arguments: [course.id]) != nil { continue }
            if let existing = try String.fetchOne(courseByTitle, arguments: [course.title]) {
                courseIDs[course.id] = existing
                continue
            }
            course.teacherId = userIDs[course.teacherId] ?? course.teacherId
            newCourses.append(course)
        }
        var lessonIDs: [String: String] = [:]
        var newLessons: [LessonRecord] = []
        for var lesson in rows.lessons {
            lesson.courseId = courseIDs[lesson.courseId] ?? lesson.courseId
            if try String.fetchOne(lessonByID, arguments: [lesson.id]) != nil { continue }
            if let existing = try String.fetchOne(lessonByTitle, arguments: [lesson.courseId, lesson.title]) {
                lessonIDs[lesson.id] = existing
                continue
            }
            newLessons.append(lesson)
        }
        for course in newCourses { try course.insert(db) }
        for lesson in newLessons { try lesson.insert(db) }
        counts.courses = newCourses.count
        counts.lessons = newLessons.count
        for var enrollment in rows.enrollments {
            enrollment.courseId = courseIDs[enrollment.courseId] ?? enrollment.courseId
            enrollment.userId = userIDs[enrollment.userId] ?? enrollment.userId
            if try Int.fetchOne(enrollmentByKey, arguments: [enrollment.courseId, enrollment.userId]) != nil { continue }
            try enrollment.insert(db)
            counts.enrollments += 1
        }
        for var progress in rows.progress {
            progress.courseId = courseIDs[progress.courseId] ?? progress.courseId
            progress.userId = userIDs[progress.userId] ?? progress.userId
            progress.lessonId = lessonIDs[progress.lessonId] ?? progress.lessonId
            if try Int.fetchOne(progressByKey, arguments: [progress.userId, progress.lessonId]) != nil { continue }
            try progress.insert(db)
            counts.progress += 1
        }
        return .inserted(
            users: counts.users, courses: counts.courses, lessons: counts.lessons, enrollments: counts.enrollments,
            progress: counts.progress)
    }

    /// How many accounts anyone could sign in to with a published password: those still holding
    /// the hash their seed gave them, and those with one of `emailKeys` (the built-in seeds'
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

    /// The accounts whose password hash is no longer the one their seed published, with the
    /// password that was published: bcrypt salts every hash, so an account reset to its published
    /// password has a new hash, and only trying the password tells (see `StartupChecks`).
    package func changedPublishedCredentials() async throws -> [PublishedCredential] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT published_credentials.password AS password, users.password_hash AS hash
                    FROM users JOIN published_credentials ON published_credentials.user_id = users.id
                    WHERE published_credentials.password IS NOT NULL
                    AND published_credentials.password_hash != users.password_hash
                    """
            ).map { PublishedCredential(password: $0["password"], currentHash: $0["hash"]) }
        }
    }
}

/// A password a seed published for an account, and the account's current password hash.
package struct PublishedCredential: Sendable, Equatable {
    package var password: String
    package var currentHash: String
}
