import GRDB

/// The statement of a course's lessons, in order: a seek of `lessons_by_course_order`.
package enum LessonListQuery {
    package static func lessons(ofCourse courseID: String) -> ListStatement {
        ListStatement(
            sql: "SELECT * FROM lessons WHERE course_id = ? ORDER BY \"order\", created_at, id", arguments: [courseID])
    }
}
