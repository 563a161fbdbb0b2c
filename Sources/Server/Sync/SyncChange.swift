import EduGoServerStore
import Foundation

/// One entry of the change feed: an entity's current representation (the same as its `GET`),
/// or a tombstone for one the caller can no longer see.
enum SyncChange: Sendable, Encodable {
    case course(CourseResponse)
    case lesson(LessonResponse)
    case enrollment(EnrollmentResponse)
    case progress(LessonProgressResponse, courseID: String)
    case profile(UserResponse)
    case deleted(ChangeLog.Entity, id: String, courseID: String?)

    /// The wire form of a change the store read.
    init(_ change: FeedChange) {
        switch change {
        case .course(let course): self = .course(CourseResponse(course))
        case .lesson(let lesson): self = .lesson(LessonResponse(lesson))
        case .enrollment(let enrollment): self = .enrollment(EnrollmentResponse(enrollment))
        case .progress(let progress): self = .progress(LessonProgressResponse(progress), courseID: progress.courseId)
        case .profile(let user): self = .profile(UserResponse(user))
        case .deleted(let entity, let id, let courseID): self = .deleted(entity, id: id, courseID: courseID)
        }
    }

    /// The entity and id the change is about.
    var key: (entity: ChangeLog.Entity, id: String) {
        switch self {
        case .course(let course): (.course, course.id)
        case .lesson(let lesson): (.lesson, lesson.id)
        case .enrollment(let enrollment): (.enrollment, enrollment.courseId)
        case .progress(let progress, _): (.progress, progress.lessonId)
        case .profile(let user): (.profile, user.id)
        case .deleted(let entity, let id, _): (entity, id)
        }
    }

    enum CodingKeys: String, CodingKey {
        case type, op, id, courseId, data
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key.entity.rawValue, forKey: .type)
        try container.encode(key.id, forKey: .id)
        switch self {
        case .course(let course):
            try container.encode("upsert", forKey: .op)
            try container.encode(course.id, forKey: .courseId)
            try container.encode(course, forKey: .data)
        case .lesson(let lesson):
            try container.encode("upsert", forKey: .op)
            try container.encode(lesson.courseId, forKey: .courseId)
            try container.encode(lesson, forKey: .data)
        case .enrollment(let enrollment):
            try container.encode("upsert", forKey: .op)
            try container.encode(enrollment.courseId, forKey: .courseId)
            try container.encode(enrollment, forKey: .data)
        case .progress(let progress, let courseID):
            try container.encode("upsert", forKey: .op)
            try container.encode(courseID, forKey: .courseId)
            try container.encode(progress, forKey: .data)
        case .profile(let user):
            try container.encode("upsert", forKey: .op)
            try container.encode(user, forKey: .data)
        case .deleted(_, _, let courseID):
            try container.encode("delete", forKey: .op)
            try container.encodeIfPresent(courseID, forKey: .courseId)
        }
    }
}

/// One page of the change feed.
struct SyncChangesPage: Sendable, Encodable {
    var changes: [SyncChange]
    /// Where the next pull starts (opaque).
    var cursor: String
    /// Whether more changes wait after ``cursor``: pull again at once.
    var hasMore: Bool
    /// Whether the next page continues the base sync this page belongs to (a client gathers a
    /// base sync's pages before it replaces its local state).
    var baseContinues = false

    /// The wire form of a page the store read, its cursor sealed by `cursors`.
    init(_ page: ChangeFeedPage, sealedBy cursors: CursorSeal) {
        changes = page.changes.map(SyncChange.init)
        cursor = cursors.seal(page.cursor)
        hasMore = page.hasMore
        baseContinues = page.baseContinues
    }
}
