import EduGoGuarded
import Foundation

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
    /// The cached values of a resource the change feed carries, for a resource without a case of
    /// its own: its repository refreshes them with a pull, and no case is added here.
    case changes(ResourceType)

    /// Whether the change feed carries what the job names: then a pull refreshes it, at the cost
    /// of what changed, instead of re-reading a list page by page. A single course still
    /// revalidates with its ETag.
    var isInChangeFeed: Bool {
        switch self {
        case .courses, .lessons, .progress, .profile, .enrollments, .changes: true
        case .course: false
        }
    }

    /// The course a job is about, when it is about one.
    var courseID: String? {
        switch self {
        case .course(let id), .lessons(let id), .progress(let id): id
        case .courses, .profile, .enrollments, .changes: nil
        }
    }
}

/// Refresh jobs waiting for the sync engine's background loop (deduplicated).
final class RefreshQueue: Sendable {
    private let jobs = Guarded<Set<RefreshJob>>([])
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

/// Fetches one course from the server (revalidating with the cached ETag: a 304 costs no
/// body) and stores it; offline it fails and leaves the store as it was. Everything else a read
/// refreshes comes through the change feed (``RefreshJob/isInChangeFeed``).
struct Refresher: Sendable {
    let client: APIClient
    let store: OfflineStore
    let cache: ResponseCache
    let now: @Sendable () -> Date
    /// Retries and time budget of every request of the refresh.
    let limits: CallLimits

    func perform(courseID id: String) async throws {
        let course: Course = try await cache.refreshJSON(.Courses.get(id), limits: limits)
        try await store.save(course, at: now())
    }

    /// Removes a course the server no longer has (it answered 404) from the local view, with
    /// its lessons and progress; queued writes stay in the outbox, where they settle on their own.
    func forget(courseID: String) async throws {
        try await store.forgetCourse(courseID)
    }
}
