import EduGoServerStore

/// The body of `PUT /v1/courses/{id}/progress`. `completed_at` is set by the server.
struct ProgressBody: ValidatedBody, Sendable {
    static let keys = Set(CodingKeys.allCases.map(\.rawValue)).union(["version"])
    /// A day of video is more than any lesson holds; larger values are client bugs.
    static let maxWatchedSeconds = 86_400

    var lessonId: String
    var completed: Bool?
    var watchedSeconds: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case lessonId = "lesson_id"
        case completed
        case watchedSeconds = "watched_seconds"
    }

    mutating func validate(_ validation: inout FieldValidation) {
        validation.identifier(&lessonId, CodingKeys.lessonId)
        validation.member(CodingKeys.completed)
        validation.range(watchedSeconds, CodingKeys.watchedSeconds, 0...Self.maxWatchedSeconds)
    }

    /// The report the store records.
    var report: ProgressReport {
        ProgressReport(lessonId: lessonId, completed: completed, watchedSeconds: watchedSeconds)
    }
}
