/// A course with the number of its lessons (part of what a course shows).
struct CourseWithLessonCount: Sendable {
    var course: CourseRecord
    var lessonCount: Int

    init(_ course: CourseRecord, lessonCount: Int) {
        self.course = course
        self.lessonCount = lessonCount
    }
}
