import EduGoServerStore

/// The body of `POST /v1/courses/{id}/lessons`.
struct NewLesson: ValidatedBody, Sendable {
    static let keys = Set(CodingKeys.allCases.map(\.rawValue))

    var title: String
    var content: String?
    /// `nil`: after the course's last lesson.
    var order: Int?
    var durationMinutes: Int?
    var videoUrl: Patch<String>

    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, content, order
        case durationMinutes = "duration_minutes"
        case videoUrl = "video_url"
    }

    /// The rules of ``LessonPatch``: a new lesson's members are checked as a change's are.
    mutating func validate(_ validation: inout FieldValidation) {
        var members = LessonPatch(
            title: title, content: content, order: order, durationMinutes: durationMinutes, videoUrl: videoUrl)
        members.validate(&validation)
        title = members.title ?? title
        content = members.content
    }

    /// The lesson the store creates.
    var draft: LessonDraft {
        LessonDraft(
            title: title, content: content ?? "", order: order, durationMinutes: durationMinutes ?? 0,
            videoUrl: videoUrl.value)
    }
}

/// The body of `PATCH /v1/courses/{id}/lessons/{lessonId}`: a member left out keeps the stored value.
struct LessonPatch: ValidatedBody, Sendable {
    static let keys = NewLesson.keys.union(["version"])

    var title: String?
    var content: String?
    var order: Int?
    var durationMinutes: Int?
    var videoUrl: Patch<String>

    typealias CodingKeys = NewLesson.CodingKeys

    mutating func validate(_ validation: inout FieldValidation) {
        validation.text(&title, CodingKeys.title, length: 1...200)
        validation.text(&content, CodingKeys.content, length: 0...100_000)
        validation.range(order, CodingKeys.order, 1...10_000)
        validation.range(durationMinutes, CodingKeys.durationMinutes, 0...1440)
        validation.url(videoUrl, CodingKeys.videoUrl)
    }

    /// The changes the store applies.
    var changes: LessonChanges {
        LessonChanges(title: title, content: content, order: order, durationMinutes: durationMinutes, videoUrl: videoUrl)
    }
}
