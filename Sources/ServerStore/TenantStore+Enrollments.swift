import Foundation
import GRDB

/// An enrollment with what `/v1/users/me/courses` shows of it.
package struct EnrolledCourse: Sendable {
    package var enrollment: EnrollmentRecord
    package var course: CourseRecord
    package var lessonCount: Int
    package var completedLessons: Int

    package init(enrollment: EnrollmentRecord, course: CourseRecord, lessonCount: Int, completedLessons: Int) {
        self.enrollment = enrollment
        self.course = course
        self.lessonCount = lessonCount
        self.completedLessons = completedLessons
    }
}

extension TenantStore {
    /// Enrolls `identity` in a published course it may see. Enrolling again changes nothing.
    /// - Returns: The enrollment, and whether this call created it.
    package func enroll(_ identity: Identity, inCourse courseID: String, now: Date) async throws -> (EnrollmentRecord, created: Bool) {
        try await database.writer.write { db -> (EnrollmentRecord, created: Bool) in
            let course = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            if let existing = try EnrollmentRecord.fetchOne(db, key: ["course_id": courseID, "user_id": identity.userID]) {
                return (existing, false)
            }
            guard course.published else {
                throw StoreError.conflict(.courseNotPublished)
            }
            let enrollment = EnrollmentRecord(courseId: courseID, userId: identity.userID, enrolledAt: now)
            try enrollment.insert(db)
            return (enrollment, true)
        }
    }

    /// Ends `identity`'s enrollment; progress is kept. Leaving twice is not an error, but a course
    /// the caller may not see and was not enrolled in is not found. The caller's own enrollment goes
    /// even when the course was unpublished since (it is still listed in their courses).
    package func unenroll(_ identity: Identity, fromCourse courseID: String) async throws {
        try await database.writer.write { db in
            let left = try EnrollmentRecord.deleteOne(db, key: ["course_id": courseID, "user_id": identity.userID])
            if !left { _ = try CourseAccess.fetchVisible(db, id: courseID, identity: identity) }
        }
    }

    /// One page of `identity`'s enrollments in courses it may see (a student does not see drafts),
    /// newest first, each with its course, lesson count and completed lessons.
    ///
    /// Five statements in one read transaction, whatever the page size: the count, the page, its
    /// courses, their lesson counts and the caller's completed lessons per course
    /// (``EnrollmentListQuery`` writes the first two), each kept prepared by the connection (the
    /// last three once for each page size).
    package func enrolledCoursePage(of identity: Identity, pagination: Pagination) async throws -> ListPage<EnrolledCourse> {
        let list = EnrollmentListQuery(
            role: identity.role, userID: identity.userID, after: pagination.after, limit: pagination.limit,
            offset: pagination.offset)
        // Taken before the read's snapshot: a restore after it makes the total this read counts unkept.
        let epoch = database.listTotals.epoch
        return try await database.read { db in
            let total = try self.total(db, list.count, unless: pagination, epoch: epoch)
            let rows = try Array(
                Row.fetchCursor(db.cachedStatement(sql: list.page.sql), arguments: list.page.arguments).map { row in
                    (item: try EnrollmentRecord(row: row), key: PageCursor(timestamp: row["enrolled_at"], id: row["course_id"]))
                })
            let enrollments = ListPage(rows: rows, pagination: pagination, total: total)
            let courseIDs = enrollments.items.map(\.courseId)
            guard !courseIDs.isEmpty else { return enrollments.compactMap { _ in nil } }
            let courses = Dictionary(
                uniqueKeysWithValues: try CourseRecord.fetchAll(
                    db.cachedStatement(sql: "SELECT * FROM courses WHERE id IN (\(databaseQuestionMarks(count: courseIDs.count)))"),
                    arguments: StatementArguments(courseIDs)
                ).map { ($0.id, $0) })
            let lessonCounts = try Self.lessonCounts(db, courseIDs: courseIDs)
            let completed = try Self.completedLessonCounts(db, userID: identity.userID, courseIDs: courseIDs)
            return enrollments.compactMap { enrollment -> EnrolledCourse? in
                courses[enrollment.courseId].map { course in
                    EnrolledCourse(
                        enrollment: enrollment, course: course, lessonCount: lessonCounts[course.id] ?? 0,
                        completedLessons: completed[course.id] ?? 0)
                }
            }
        }
    }

    /// Lessons `userID` completed, per course.
    private static func completedLessonCounts(_ db: Database, userID: String, courseIDs: [String]) throws -> [String: Int] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT course_id, COUNT(*) AS n FROM progress
                WHERE user_id = ? AND completed AND course_id IN (\(databaseQuestionMarks(count: courseIDs.count)))
                GROUP BY course_id
                """),
            arguments: StatementArguments([userID] + courseIDs))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as Int) })
    }
}
