/// The synced resources of a tenant, in base-sync order (a course before its lessons).
extension FeedEntity {
    /// Every entity the feed carries. Its order is the base sync's, and a base cursor names an
    /// entity by its index here: append, never reorder.
    package static let all: [FeedEntity] = [course, lesson, enrollment, progress, profile]

    /// The entity named `name` among `entities`.
    package static func named(_ name: String, in entities: [FeedEntity] = all) -> FeedEntity? {
        entities.first { $0.name == name }
    }

    package static let course = FeedEntity(
        name: "course", table: "courses", idColumn: "id", placement: .course, audience: .course,
        followsCourseVisibility: false, deletedBeforeCourse: false
    ) { db, sql, arguments in
        let courses = try CourseRecord.fetchAll(db, sql: sql, arguments: arguments)
        let counts = try TenantStore.lessonCounts(db, courseIDs: courses.map(\.id))
        return courses.map { Entry(id: $0.id, courseID: $0.id, state: CourseWithLessonCount($0, lessonCount: counts[$0.id] ?? 0)) }
    }

    package static let lesson = FeedEntity(
        name: "lesson", table: "lessons", idColumn: "id", placement: .inCourse(column: "course_id"), audience: .course,
        followsCourseVisibility: true, deletedBeforeCourse: true,
        fetch: records(LessonRecord.self) { ($0.id, $0.courseId) })

    package static let enrollment = FeedEntity(
        name: "enrollment", table: "enrollments", idColumn: "course_id", placement: .inCourse(column: "course_id"),
        audience: .owner(column: "user_id"), followsCourseVisibility: true, deletedBeforeCourse: false,
        fetch: records(EnrollmentRecord.self) { ($0.courseId, $0.courseId) })

    package static let progress = FeedEntity(
        name: "progress", table: "progress", idColumn: "lesson_id", placement: .inCourse(column: "course_id"),
        audience: .owner(column: "user_id"), followsCourseVisibility: true, deletedBeforeCourse: false,
        fetch: records(ProgressRecord.self) { ($0.lessonId, $0.courseId) })

    /// A user's own profile. A password change is no change of it.
    package static let profile = FeedEntity(
        name: "profile", table: "users", idColumn: "id", placement: .outsideCourses, audience: .owner(column: "id"),
        followsCourseVisibility: false, deletedBeforeCourse: false,
        changeColumns: ["email", "first_name", "last_name", "role", "email_verified", "version"],
        fetch: records(UserRecord.self) { ($0.id, nil) })
}
