/// One entry of the change feed: an entity's current state, or a tombstone for one the caller can
/// no longer see.
package enum FeedChange: Sendable {
    case course(CourseWithLessonCount)
    case lesson(LessonRecord)
    case enrollment(EnrollmentRecord)
    case progress(ProgressRecord)
    case profile(UserRecord)
    case deleted(ChangeLog.Entity, id: String, courseID: String?)

    /// The entity and id the change is about.
    package var key: (entity: ChangeLog.Entity, id: String) {
        switch self {
        case .course(let course): (.course, course.course.id)
        case .lesson(let lesson): (.lesson, lesson.id)
        case .enrollment(let enrollment): (.enrollment, enrollment.courseId)
        case .progress(let progress): (.progress, progress.lessonId)
        case .profile(let user): (.profile, user.id)
        case .deleted(let entity, let id, _): (entity, id)
        }
    }
}

/// One page of the change feed.
package struct ChangeFeedPage: Sendable {
    package var changes: [FeedChange]
    /// Where the next pull starts (the HTTP layer seals it).
    package var cursor: ChangeCursor
    /// Whether more changes wait after ``cursor``: pull again at once.
    package var hasMore: Bool
    /// Whether the next page continues the base sync this page belongs to.
    package var baseContinues = false

    package init(changes: [FeedChange], cursor: ChangeCursor, hasMore: Bool, baseContinues: Bool = false) {
        self.changes = changes
        self.cursor = cursor
        self.hasMore = hasMore
        self.baseContinues = baseContinues
    }
}
