/// One learner's progress through one course.
package struct CourseProgress: Sendable {
    package var courseID: String
    package var userID: String
    /// The learner's progress records in the course, oldest change first.
    package var lessons: [ProgressRecord]
    package var completedLessons: Int
    package var totalLessons: Int

    package init(courseID: String, userID: String, lessons: [ProgressRecord], completedLessons: Int, totalLessons: Int) {
        self.courseID = courseID
        self.userID = userID
        self.lessons = lessons
        self.completedLessons = completedLessons
        self.totalLessons = totalLessons
    }
}
