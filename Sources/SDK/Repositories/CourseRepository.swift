import Foundation
import GRDB

/// Courses and their lessons, read from the local store and refreshed in the background.
public struct CourseRepository: Sendable {
    let store: OfflineStore
    let engine: SyncEngine

    /// Cached courses, newest first, optionally of one category. Asks for a background refresh.
    public func list(category: String? = nil) async throws -> Cached<[Course]> {
        engine.requestRefresh(.courses)
        let courses = try await store.writer.read { db in try Self.read(db, category: category, query: nil) }
        return await engine.marked(courses, for: .courses)
    }

    /// Cached courses whose title or description contains `query`, ignoring case and accents.
    public func search(_ query: String, category: String? = nil) async throws -> Cached<[Course]> {
        let courses = try await store.writer.read { db in try Self.read(db, category: category, query: query) }
        return await engine.marked(courses, for: .courses)
    }

    /// One cached course. Asks for a background refresh of it.
    public func course(id: String) async throws -> Cached<Course>? {
        engine.requestRefresh(.course(id))
        let course = try await store.writer.read { db -> Cached<Course>? in
            guard let entity = try LocalView.entity(db, kind: .course, id: id) else { return nil }
            return Cached(value: try entity.decode(Course.self), hasPendingWrites: false, fetchedAt: entity.fetchedAt)
        }
        guard let course else { return nil }
        return await engine.marked(course, for: .course(id))
    }

    /// A course's cached lessons in order. Asks for a background refresh.
    public func lessons(courseID: String) async throws -> Cached<[Lesson]> {
        engine.requestRefresh(.lessons(courseID: courseID))
        let lessons = try await store.writer.read { db in
            let entities = try LocalView.entities(db, kind: .lesson, parentID: courseID)
            return Cached(
                value: try entities.map { try $0.decode(Lesson.self) }, hasPendingWrites: false,
                fetchedAt: entities.map(\.fetchedAt).min())
        }
        return await engine.marked(lessons, for: .lessons(courseID: courseID))
    }

    /// The cached course list now and after every change to it.
    public func observe(category: String? = nil) -> LocalObservation<Cached<[Course]>> {
        let openedAt = engine.openedAt
        return LocalObservation(
            ValueObservation.tracking { db in try Self.read(db, category: category, query: nil).marked(nil, openedAt: openedAt) }
                .removeDuplicates().values(in: store.writer))
    }

    static func read(_ db: Database, category: String?, query: String?) throws -> Cached<[Course]> {
        let entities = try LocalView.entities(db, kind: .course)
        var courses = try entities.map { try $0.decode(Course.self) }
        if let category { courses = courses.filter { $0.category == category } }
        if let query, !query.isEmpty {
            let needle = fold(query)
            courses = courses.filter { fold($0.title + " " + $0.description).contains(needle) }
        }
        return Cached(value: courses, hasPendingWrites: false, fetchedAt: entities.map(\.fetchedAt).min())
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
