import Foundation
import GRDB
import Synchronization

/// A cached collection or object to fetch again from the server.
public enum RefreshJob: Hashable, Sendable {
    case courses
    case course(String)
    case lessons(courseID: String)
    case progress(courseID: String)
    case profile
    case enrollments

    /// The course a job is about, when it is about one.
    var courseID: String? {
        switch self {
        case .course(let id), .lessons(let id), .progress(let id): id
        case .courses, .profile, .enrollments: nil
        }
    }
}

/// Refresh jobs waiting for the sync engine's background loop (deduplicated).
final class RefreshQueue: Sendable {
    private let jobs = Mutex<Set<RefreshJob>>([])
    let ticks = Broadcaster<Int>(0)

    func add(_ job: RefreshJob) {
        jobs.withLock { _ = $0.insert(job) }
        ticks.update { $0 += 1 }
    }

    func takeAll() -> Set<RefreshJob> {
        jobs.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
    }
}

/// Fetches what a ``RefreshJob`` names from the server (revalidating with the cached ETag: a
/// 304 costs no body) and stores its state in the local cache; offline it fails and leaves the
/// store as it was.
struct Refresher: Sendable {
    let client: APIClient
    let store: OfflineStore
    let cache: ResponseCache
    let now: @Sendable () -> Date
    /// Retries and time budget of every request of the refresh.
    let limits: CallLimits

    func perform(_ job: RefreshJob) async throws {
        switch job {
        case .courses:
            var page = 1
            var all: [Course] = []
            while true {
                let result: Page<Course> = try await cache.refreshJSON(.Courses.list(page: page, limit: 100), limits: limits)
                all += result.items
                if all.count >= result.total || result.items.isEmpty { break }
                page += 1
            }
            try await replaceCourses(all)
        case .course(let id):
            let course: Course = try await cache.refreshJSON(.Courses.get(id), limits: limits)
            try await store.writer.write { [now] db in try Self.entity(course, at: now()).save(db) }
        case .lessons(let courseID):
            let list: LessonList = try await cache.refreshJSON(.Courses.lessons(courseID), limits: limits)
            let fetched = now()
            try await store.writer.write { db in
                try CachedEntity.filter(CachedEntity.Columns.kind == CachedEntity.Kind.lesson.rawValue && CachedEntity.Columns.parentId == courseID).deleteAll(db)
                for lesson in list.items {
                    try CachedEntity.make(
                        lesson, kind: .lesson, id: lesson.id, parentID: courseID,
                        sortKey: String(format: "%06d", lesson.order), version: lesson.version, at: fetched
                    ).save(db)
                }
            }
        case .progress(let courseID):
            let progress: CourseProgress = try await client.executeWithMetadata(endpoint: .Courses.progress(courseID), limits: limits, asUser: store.userID).value
            let fetched = now()
            try await store.writer.write { db in
                for lesson in progress.lessons {
                    try CachedEntity.make(
                        lesson, kind: .progress, id: "\(courseID)/\(lesson.lessonId)", parentID: courseID,
                        sortKey: lesson.lessonId, version: lesson.version, at: fetched
                    ).save(db)
                }
            }
        case .profile:
            let user: User = try await client.executeWithMetadata(endpoint: .Users.me, limits: limits, asUser: store.userID).value
            let fetched = now()
            try await store.writer.write { db in
                try CachedEntity.make(user, kind: .profile, id: "me", version: user.version, at: fetched).save(db)
            }
        case .enrollments:
            var page = 1
            var all: [EnrolledCourse] = []
            while true {
                let result: Page<EnrolledCourse> = try await client.executeWithMetadata(endpoint: .Users.myCourses(page: page, limit: 100), limits: limits, asUser: store.userID).value
                all += result.items
                if all.count >= result.total || result.items.isEmpty { break }
                page += 1
            }
            let fetched = now()
            try await store.writer.write { [all] db in
                try CachedEntity.filter(CachedEntity.Columns.kind == CachedEntity.Kind.enrollment.rawValue).deleteAll(db)
                for enrolled in all {
                    let enrollment = Enrollment(courseId: enrolled.course.id, userId: "", enrolledAt: enrolled.enrolledAt)
                    try CachedEntity.make(enrollment, kind: .enrollment, id: enrolled.course.id, version: nil, at: fetched).save(db)
                    try Self.entity(enrolled.course, at: fetched).save(db)
                }
            }
        }
    }

    /// Removes a course the server no longer has (it answered 404) from the local view, with
    /// its lessons and progress; queued writes stay in the outbox, where they settle on their own.
    func forget(courseID: String) async throws {
        try await store.writer.write { db in
            try CachedEntity.filter(CachedEntity.Columns.kind == CachedEntity.Kind.course.rawValue && CachedEntity.Columns.id == courseID)
                .deleteAll(db)
            try CachedEntity.filter(
                [CachedEntity.Kind.lesson.rawValue, CachedEntity.Kind.progress.rawValue].contains(CachedEntity.Columns.kind)
                    && CachedEntity.Columns.parentId == courseID
            ).deleteAll(db)
        }
    }

    private func replaceCourses(_ courses: [Course]) async throws {
        let fetched = now()
        try await store.writer.write { db in
            try CachedEntity.filter(CachedEntity.Columns.kind == CachedEntity.Kind.course.rawValue).deleteAll(db)
            for course in courses { try Self.entity(course, at: fetched).save(db) }
        }
    }

    static func entity(_ course: Course, at date: Date) throws -> CachedEntity {
        // Newest first: invert the creation time so an ascending sort key lists newest first.
        let key = String(format: "%012.0f", 1e11 - course.createdAt.timeIntervalSince1970)
        return try CachedEntity.make(course, kind: .course, id: course.id, sortKey: key, version: course.version, at: date)
    }
}
