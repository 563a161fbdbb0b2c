import Foundation

/// Courses and their lessons, read from the local store and refreshed in the background.
public struct CourseRepository: Sendable {
    let store: OfflineStore
    let engine: SyncEngine

    /// Cached courses, newest first, optionally of one category. Asks for a background refresh.
    public func list(category: String? = nil) async throws -> Cached<[Course]> {
        engine.requestRefresh(.courses)
        return await engine.marked(try await store.read(.courses(category: category)), for: .courses)
    }

    /// Cached courses whose title or description contains `query`, ignoring case and accents.
    public func search(_ query: String, category: String? = nil) async throws -> Cached<[Course]> {
        await engine.marked(try await store.read(.courses(category: category, matching: query)), for: .courses)
    }

    /// One cached course. Asks for a background refresh of it.
    public func course(id: String) async throws -> Cached<Course>? {
        engine.requestRefresh(.course(id))
        guard let course = try await store.read(.course(id: id)) else { return nil }
        return await engine.marked(course, for: .course(id))
    }

    /// A course's cached lessons in order. Asks for a background refresh.
    public func lessons(courseID: String) async throws -> Cached<[Lesson]> {
        engine.requestRefresh(.lessons(courseID: courseID))
        return await engine.marked(try await store.read(.lessons(courseID: courseID)), for: .lessons(courseID: courseID))
    }

    /// The cached course list now and after every change to it.
    public func observe(category: String? = nil) -> LocalObservation<Cached<[Course]>> {
        let openedAt = engine.openedAt
        return store.observe(LocalRead.courses(category: category).map { $0.marked(nil, openedAt: openedAt) })
    }
}
