/// A course with the number of its lessons (part of what a course shows).
package struct CourseWithLessonCount: Sendable {
    package var course: CourseRecord
    package var lessonCount: Int

    package init(_ course: CourseRecord, lessonCount: Int) {
        self.course = course
        self.lessonCount = lessonCount
    }
}
