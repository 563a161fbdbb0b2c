import GRDB

/// An enrollment with what `/v1/users/me/courses` shows of it.
struct EnrolledCourse: Sendable {
    var enrollment: EnrollmentRecord
    var course: CourseRecord
    var lessonCount: Int
    var completedLessons: Int
}

extension TenantStore {
    /// One page of `identity`'s enrollments in courses it may see (a student does not see drafts),
    /// newest first, each with its course, lesson count and completed lessons.
    ///
    /// Five statements in one read transaction, whatever the page size: the count, the page, its
    /// courses, their lesson counts and the caller's completed lessons per course.
    func enrolledCoursePage(of identity: Identity, pagination: Pagination) async throws -> Page<EnrolledCourse> {
        try await database.writer.read { db in
            let visibleCourseIDs = CourseAccess.visible(identity).select(CourseRecord.Columns.id)
            let enrollments = EnrollmentRecord.filter(
                Column("user_id") == identity.userID && visibleCourseIDs.contains(Column("course_id")))
            let total = try enrollments.fetchCount(db)
            let page = try enrollments.order(Column("enrolled_at").desc, Column("course_id"))
                .limit(pagination.limit, offset: pagination.offset).fetchAll(db)
            let courseIDs = page.map(\.courseId)
            guard !courseIDs.isEmpty else {
                return Page(items: [], page: pagination.page, limit: pagination.limit, total: total)
            }
            let courses = Dictionary(
                uniqueKeysWithValues: try CourseRecord.fetchAll(db, keys: courseIDs).map { ($0.id, $0) })
            let lessonCounts = try CourseRoutes.lessonCounts(db, courseIDs: courseIDs)
            let completed = try Self.completedLessonCounts(db, userID: identity.userID, courseIDs: courseIDs)
            let items = page.compactMap { enrollment -> EnrolledCourse? in
                courses[enrollment.courseId].map { course in
                    EnrolledCourse(
                        enrollment: enrollment, course: course, lessonCount: lessonCounts[course.id] ?? 0,
                        completedLessons: completed[course.id] ?? 0)
                }
            }
            return Page(items: items, page: pagination.page, limit: pagination.limit, total: total)
        }
    }

    /// Lessons `userID` completed, per course.
    private static func completedLessonCounts(_ db: Database, userID: String, courseIDs: [String]) throws -> [String: Int] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT course_id, COUNT(*) AS n FROM progress
                WHERE user_id = ? AND completed AND course_id IN (\(databaseQuestionMarks(count: courseIDs.count)))
                GROUP BY course_id
                """,
            arguments: StatementArguments([userID] + courseIDs))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["course_id"] as String, $0["n"] as Int) })
    }
}
