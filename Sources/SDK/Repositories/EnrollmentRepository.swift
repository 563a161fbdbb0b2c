import Foundation

/// The courses the learner is enrolled in; enrolling and leaving are synced through the outbox.
public struct EnrollmentRepository: Sendable {
    let store: OfflineStore
    let engine: SyncEngine

    /// Ids of enrolled courses, local changes included. Asks for a background refresh.
    public func enrolledCourseIDs() async throws -> Cached<Set<String>> {
        engine.requestRefresh(.enrollments)
        return await engine.marked(try await store.read(.enrolledCourseIDs), for: .enrollments)
    }

    /// The enrolled course ids now and after every change to them.
    public func observe() -> LocalObservation<Cached<Set<String>>> {
        let openedAt = engine.openedAt
        return store.observe(LocalRead.enrolledCourseIDs.map { $0.marked(nil, openedAt: openedAt) })
    }

    /// Enrolls the learner in a course: included in ``enrolledCourseIDs()`` at once, sent when the
    /// server is reachable. Progress recorded in the course meanwhile is sent after it.
    public func enroll(courseID: String) async throws {
        try await engine.record(
            PendingWrite(resource: .enrollment(course: courseID), operation: .create, endpoint: .Courses.enroll(courseID), body: nil))
    }

    /// Leaves a course (optimistically); an enrollment never sent is simply cancelled.
    public func unenroll(courseID: String) async throws {
        try await engine.record(
            PendingWrite(resource: .enrollment(course: courseID), operation: .delete, endpoint: .Courses.unenroll(courseID), body: nil))
    }
}
