/// One learner's progress through one course.
struct CourseProgress: Sendable {
    var courseID: String
    var userID: String
    /// The learner's progress records in the course, oldest change first.
    var lessons: [ProgressRecord]
    var completedLessons: Int
    var totalLessons: Int
}
