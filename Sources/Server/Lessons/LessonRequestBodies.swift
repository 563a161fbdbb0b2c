import EduGoServerStore

extension LessonDraft {
    static let keys: Set<String> = ["title", "content", "order", "duration_minutes", "video_url"]

    /// Reads a `POST /v1/courses/{id}/lessons` body.
    ///
    /// - Throws: `400 validation_failed` naming every invalid member.
    init(_ body: [String: JSONValue]) throws {
        try JSONObjectReader.checkKeys(body, known: Self.keys, writable: Self.keys)
        var reader = JSONObjectReader(body)
        let title = reader.string("title", required: true, length: 1...200)
        self.init(
            title: "", content: reader.string("content", length: 0...100_000) ?? "",
            order: reader.int("order", range: 1...10_000),
            durationMinutes: reader.int("duration_minutes", range: 0...1440) ?? 0,
            videoUrl: reader.nullableURL("video_url").value)
        self.title = try reader.values(title)
    }
}

extension LessonChanges {
    static let keys: Set<String> = LessonDraft.keys.union(["version"])

    /// Reads a `PATCH /v1/courses/{id}/lessons/{lessonId}` body whose members were checked.
    ///
    /// - Throws: `400 validation_failed` naming every invalid member.
    init(_ body: [String: JSONValue]) throws {
        self.init()
        var reader = JSONObjectReader(body)
        title = reader.string("title", length: 1...200)
        content = reader.string("content", length: 0...100_000)
        order = reader.int("order", range: 1...10_000)
        durationMinutes = reader.int("duration_minutes", range: 0...1440)
        videoUrl = reader.nullableURL("video_url")
        try reader.throwIfInvalid()
    }
}
