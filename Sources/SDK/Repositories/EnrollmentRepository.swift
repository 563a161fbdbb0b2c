import Foundation
import GRDB

/// The courses the learner is enrolled in; enrolling and leaving are synced through the outbox.
public struct EnrollmentRepository: Sendable {
    let store: OfflineStore
    let engine: SyncEngine

    /// Ids of enrolled courses, local changes included. Asks for a background refresh.
    public func enrolledCourseIDs() async throws -> Cached<Set<String>> {
        engine.requestRefresh(.enrollments)
        let enrolled = try await store.writer.read { db in try Self.read(db) }
        return await engine.marked(enrolled, for: .enrollments)
    }

    /// The enrolled course ids now and after every change to them.
    public func observe() -> LocalObservation<Cached<Set<String>>> {
        let openedAt = engine.openedAt
        return LocalObservation(
            ValueObservation.tracking { db in try Self.read(db).marked(nil, openedAt: openedAt) }
                .removeDuplicates().values(in: store.writer))
    }

    /// Enrolls in a course (optimistically).
    public func enroll(courseID: String) async throws {
        try await enqueue(courseID: courseID, operation: .create, endpoint: .Courses.enroll(courseID))
    }

    /// Leaves a course (optimistically); an enrollment never sent is simply cancelled.
    public func unenroll(courseID: String) async throws {
        try await enqueue(courseID: courseID, operation: .delete, endpoint: .Courses.unenroll(courseID))
    }

    private func enqueue(courseID: String, operation: OutboxItem.Operation, endpoint: Endpoint) async throws {
        try await engine.outbox.enqueue(
            PendingWrite(resource: "enrollment/\(courseID)", operation: operation, endpoint: endpoint, body: nil, baseVersion: nil, baseJson: nil))
        engine.writeEnqueued()
        await engine.refreshStatus()
    }

    static func read(_ db: Database) throws -> Cached<Set<String>> {
        let entities = try LocalView.entities(db, kind: .enrollment)
        var ids = Set(entities.map(\.id))
        let pending = try LocalView.pending(db, resourcePrefix: "enrollment")
        for item in pending {
            let course = String(item.resource.dropFirst("enrollment/".count))
            if item.operation == .delete { ids.remove(course) } else { ids.insert(course) }
        }
        return Cached(value: ids, hasPendingWrites: !pending.isEmpty, fetchedAt: entities.map(\.fetchedAt).min())
    }
}
