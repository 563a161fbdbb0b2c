import GRDB

/// The statement of a learner's progress in one course, oldest change first: a seek of
/// `progress_by_user_course_updated` (``ListIndexesMigration/progressIndex``).
package enum ProgressListQuery {
    package static func progress(inCourse courseID: String, of userID: String) -> ListStatement {
        ListStatement(
            sql: "SELECT * FROM progress WHERE user_id = ? AND course_id = ? ORDER BY updated_at, lesson_id",
            arguments: [userID, courseID])
    }
}
