import Foundation
import GRDB

/// A learner's lesson progress: read from the local store, written optimistically and synced
/// through the outbox (`PUT /v1/courses/{id}/progress`).
public struct ProgressRepository: Sendable {
    let store: OfflineStore
    let engine: SyncEngine
    let now: @Sendable () -> Date

    /// The progress of every lesson with a record in `courseID`, local writes included; asks for a
    /// background refresh when online.
    public func lessons(courseID: String) async throws -> Cached<[LessonProgress]> {
        engine.requestRefresh(.progress(courseID: courseID))
        let now = self.now
        let progress = try await store.writer.read { db in try Self.read(db, courseID: courseID, now: now()) }
        return await engine.marked(progress, for: .progress(courseID: courseID))
    }

    /// The local progress of a course now and after every change to it.
    public func observe(courseID: String) -> LocalObservation<Cached<[LessonProgress]>> {
        let (now, openedAt) = (self.now, engine.openedAt)
        return LocalObservation(
            ValueObservation.tracking { db in try Self.read(db, courseID: courseID, now: now()).marked(nil, openedAt: openedAt) }
                .removeDuplicates().values(in: store.writer))
    }

    /// Records progress on a lesson: visible locally at once, sent when the server is reachable.
    ///
    /// - Parameters:
    ///   - watchedSeconds: total seconds watched (0...86400), or `nil` to leave it.
    ///   - completed: the completion state, or `nil` to leave it.
    @discardableResult
    public func record(courseID: String, lessonID: String, watchedSeconds: Int? = nil, completed: Bool? = nil) async throws -> LessonProgress {
        var body: [String: Any] = ["lesson_id": lessonID]
        if let watchedSeconds { body["watched_seconds"] = max(0, min(86_400, watchedSeconds)) }
        if let completed { body["completed"] = completed }
        let server = try await store.writer.read { db in
            try LocalView.entity(db, kind: .progress, id: "\(courseID)/\(lessonID)")
        }
        let write = PendingWrite(
            resource: "progress/\(courseID)/\(lessonID)", operation: .update, endpoint: .Courses.putProgress(courseID),
            body: JSONObject.encode(body), baseVersion: server?.version, baseJson: server?.json)
        try await engine.outbox.enqueue(write)
        engine.writeEnqueued()
        await engine.refreshStatus()
        let now = self.now
        let all = try await store.writer.read { db in try Self.read(db, courseID: courseID, now: now()) }
        guard let result = all.value.first(where: { $0.lessonId == lessonID }) else { throw NetworkError.unknown("progress") }
        return result
    }

    static func read(_ db: Database, courseID: String, now: Date) throws -> Cached<[LessonProgress]> {
        let entities = try LocalView.entities(db, kind: .progress, parentID: courseID)
        let pending = try LocalView.pending(db, resourcePrefix: "progress/\(courseID)")
        var byLesson: [String: Data] = [:]
        for entity in entities { byLesson[entity.sortKey] = entity.json }
        var lessonIDs = entities.map(\.sortKey)
        for item in pending {
            let lesson = String(item.resource.split(separator: "/").last ?? "")
            if byLesson[lesson] == nil && !lessonIDs.contains(lesson) {
                lessonIDs.append(lesson)
                byLesson[lesson] = JSONObject.encode([
                    "lesson_id": lesson, "completed": false, "completed_at": NSNull(), "watched_seconds": 0, "version": 0,
                    "updated_at": ISO8601DateFormatter().string(from: now),
                ])
            }
        }
        let values = try lessonIDs.compactMap { lesson -> LessonProgress? in
            let items = pending.filter { $0.resource == "progress/\(courseID)/\(lesson)" }
            guard let json = LocalView.overlay(byLesson[lesson], items) else { return nil }
            return try JSONCoding.decoder.decode(LessonProgress.self, from: json)
        }
        return Cached(value: values, hasPendingWrites: !pending.isEmpty, fetchedAt: entities.map(\.fetchedAt).min())
    }
}
