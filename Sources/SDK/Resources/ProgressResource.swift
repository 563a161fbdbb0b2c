import Foundation

/// The learner's progress in one lesson: cached as `<course>/<lesson>` under the course; writes
/// are queued under `progress/<course>/<lesson>`, wait for a queued enrollment in the course, and
/// merge by meaning (the larger watch time, any completion), on a conflict and over the state a
/// write is made on.
enum ProgressResource: SyncedResource {
    static let type = ResourceType.progress
    static let removedWithCourse = CourseLink.parent
    static let keyIDCount: Int? = 2
    static let conflicts = ConflictRule(
        strategy: .merge, serverOwned: ["completed_at", "course_id", "user_id"], identity: ["lesson_id"],
        monotonic: ["watched_seconds": .larger, "completed": .either], firstWritesMerge: true)

    static func entityID(id lessonID: String, courseID: String?) -> String {
        "\(courseID ?? "")/\(lessonID)"
    }

    static func entity(_ progress: LessonProgress, courseID: String?, at date: Date) throws -> CachedEntity {
        let course = courseID ?? ""
        return try CachedEntity.make(
            progress, kind: type, id: entityID(id: progress.lessonId, courseID: course), parentID: course,
            sortKey: progress.lessonId, version: progress.version, at: date)
    }

    static func resourceKey(id lessonID: String, courseID: String?) -> ResourceKey? {
        courseID.map { .progress(course: $0, lesson: lessonID) }
    }

    static func entityID(of key: ResourceKey) -> String {
        entityID(id: key.ids.last ?? "", courseID: key.ids.first)
    }

    static func courseID(of key: ResourceKey) -> String? { key.ids.first }

    /// Progress in a course needs the enrollment in it: the server answers 403 `not_enrolled` to
    /// progress of a learner not (yet) enrolled.
    static func prerequisite(of key: ResourceKey) -> ResourceKey? {
        key.ids.first.map { .enrollment(course: $0) }
    }

    /// A lesson with only queued writes starts from an empty record dated `now`.
    static func placeholder(for key: ResourceKey, at now: Date) -> Data? {
        JSONObject.encode([
            "lesson_id": key.ids.last ?? "", "completed": false, "completed_at": NSNull(), "watched_seconds": 0, "version": 0,
            "updated_at": ISO8601DateFormatter().string(from: now),
        ])
    }

    static func current(of key: ResourceKey, client: APIClient, userID: String) async -> (version: Int, json: Data)? {
        guard let course = key.ids.first, let lesson = key.ids.last,
            let progress: CourseProgress = try? await client.executeWithMetadata(
                endpoint: .Courses.progress(course), limits: nil, asUser: userID).value,
            let record = progress.lessons.first(where: { $0.lessonId == lesson }),
            let json = try? JSONCoding.encoder.encode(record)
        else { return nil }
        return (record.version, json)
    }
}

extension ResourceType {
    /// A learner's progress on one lesson (`progress`).
    public static let progress = ResourceType(rawValue: "progress")
}

extension ResourceKey {
    /// A learner's progress on one lesson: `progress/<course>/<lesson>`.
    public static func progress(course: String, lesson: String) -> ResourceKey {
        ResourceKey(.progress, ids: [course, lesson])
    }
}

extension LocalRead<Cached<[LessonProgress]>> {
    /// The progress of every lesson of `courseID` with a record (in lesson id order) or a queued
    /// write (after them), queued writes laid over it.
    static func progress(courseID: String, now: @escaping @Sendable () -> Date) -> Self {
        ProgressResource.localValues(parentID: courseID, writesUnder: ResourceKey.prefix(.progress, ids: [courseID]), now: now)
    }
}
