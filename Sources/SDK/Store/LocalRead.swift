import Foundation
import GRDB

/// One read of the local store, named for what it reads: run once (``OfflineStore/read(_:)``) or
/// observed (``OfflineStore/observe(_:)``). The repositories say what they need; the SQL stays here.
struct LocalRead<Value: Sendable & Equatable>: Sendable {
    let fetch: @Sendable (Database) throws -> Value

    /// The same read with `transform` applied to its value.
    func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> LocalRead<Other> {
        LocalRead<Other> { [fetch] db in transform(try fetch(db)) }
    }
}

extension LocalRead<Cached<[Course]>> {
    /// The cached courses, newest first, of one category and matching a search when given.
    static func courses(category: String?, matching query: String? = nil) -> Self {
        Self { db in try LocalView.courses(db, category: category, query: query) }
    }
}

extension LocalRead<Cached<Course>?> {
    /// One cached course.
    static func course(id: String) -> Self { Self { db in try LocalView.course(db, id: id) } }
}

extension LocalRead<Cached<[Lesson]>> {
    /// A course's cached lessons in order.
    static func lessons(courseID: String) -> Self { Self { db in try LocalView.lessons(db, courseID: courseID) } }
}

extension LocalRead<Cached<Set<String>>> {
    /// The enrolled course ids, queued enrollments and departures included.
    static var enrolledCourseIDs: Self { Self { db in try LocalView.enrolledCourseIDs(db) } }
}

extension LocalRead<Cached<User>?> {
    /// The profile with queued edits; `nil` before it was ever fetched.
    static var profile: Self { Self { db in try LocalView.profile(db) } }
}

extension LocalRead<Cached<[LessonProgress]>> {
    /// The progress of a course's lessons, queued writes included.
    static func progress(courseID: String, now: @escaping @Sendable () -> Date) -> Self {
        Self { db in try LocalView.progress(db, courseID: courseID, now: now()) }
    }
}

extension OfflineStore {
    /// Runs `read` once, in one read transaction.
    func read<Value>(_ read: LocalRead<Value>) async throws -> Value {
        try await writer.read(read.fetch)
    }

    /// `read`'s value now and after every change to what it read (equal values delivered once).
    func observe<Value>(_ read: LocalRead<Value>) -> LocalObservation<Value> {
        LocalObservation(ValueObservation.tracking(read.fetch).removeDuplicates().values(in: writer))
    }
}
