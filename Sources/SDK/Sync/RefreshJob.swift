import Foundation
import Synchronization

/// A cached collection or object to fetch again from the server.
public enum RefreshJob: Hashable, Sendable {
    /// The whole course catalogue (every page of the course list).
    case courses
    /// One course, by its id.
    case course(String)
    /// The lessons of the course with this id.
    case lessons(courseID: String)
    /// The learner's progress in the course with this id.
    case progress(courseID: String)
    /// The signed-in user's profile.
    case profile
    /// The courses the learner is enrolled in (every page).
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
                if result.isLast(received: all.count) { break }
                page += 1
            }
            try await store.replaceCourses(all, at: now())
        case .course(let id):
            let course: Course = try await cache.refreshJSON(.Courses.get(id), limits: limits)
            try await store.save(course, at: now())
        case .lessons(let courseID):
            let list: LessonList = try await cache.refreshJSON(.Courses.lessons(courseID), limits: limits)
            try await store.replaceLessons(list.items, ofCourse: courseID, at: now())
        case .progress(let courseID):
            let progress: CourseProgress = try await client.executeWithMetadata(
                endpoint: .Courses.progress(courseID), limits: limits, asUser: store.userID).value
            try await store.save(progress, ofCourse: courseID, at: now())
        case .profile:
            let user: User = try await client.executeWithMetadata(endpoint: .Users.me, limits: limits, asUser: store.userID).value
            try await store.saveProfile(user, at: now())
        case .enrollments:
            var page = 1
            var all: [EnrolledCourse] = []
            while true {
                let result: Page<EnrolledCourse> = try await client.executeWithMetadata(
                    endpoint: .Users.myCourses(page: page, limit: 100), limits: limits, asUser: store.userID).value
                all += result.items
                if result.isLast(received: all.count) { break }
                page += 1
            }
            try await store.replaceEnrollments(all, at: now())
        }
    }

    /// Removes a course the server no longer has (it answered 404) from the local view, with
    /// its lessons and progress; queued writes stay in the outbox, where they settle on their own.
    func forget(courseID: String) async throws {
        try await store.forgetCourse(courseID)
    }
}
