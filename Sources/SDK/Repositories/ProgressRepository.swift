import Foundation

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
        let progress = try await store.read(.progress(courseID: courseID, now: now))
        return await engine.marked(progress, for: .progress(courseID: courseID))
    }

    /// The local progress of a course now and after every change to it.
    public func observe(courseID: String) -> LocalObservation<Cached<[LessonProgress]>> {
        let openedAt = engine.openedAt
        return store.observe(LocalRead.progress(courseID: courseID, now: now).map { $0.marked(nil, openedAt: openedAt) })
    }

    /// Records progress on a lesson: visible locally at once, sent when the server is reachable.
    ///
    /// Two transactions: one queues the write on the cached record's version (and counts the
    /// unsynced work for the sync status), one reads the result back.
    ///
    /// - Parameters:
    ///   - watchedSeconds: total seconds watched (0...86400), or `nil` to leave it.
    ///   - completed: the completion state, or `nil` to leave it.
    /// - Returns: the lesson's progress with this write applied.
    @discardableResult
    public func record(courseID: String, lessonID: String, watchedSeconds: Int? = nil, completed: Bool? = nil) async throws -> LessonProgress {
        var body: [String: Any] = ["lesson_id": lessonID]
        if let watchedSeconds { body["watched_seconds"] = max(0, min(86_400, watchedSeconds)) }
        if let completed { body["completed"] = completed }
        try await engine.record(
            PendingWrite(
                resource: .progress(course: courseID, lesson: lessonID), operation: .update,
                endpoint: .Courses.putProgress(courseID), body: JSONObject.encode(body)))
        let all = try await store.read(.progress(courseID: courseID, now: now))
        guard let result = all.value.first(where: { $0.lessonId == lessonID }) else { throw NetworkError.unknown("progress") }
        return result
    }
}
