import EduGoServerStore

/// The body of `POST /v1/courses`.
struct CourseDraft: Sendable {
    static let keys: Set<String> = ["title", "description", "category", "thumbnail_url", "published", "teacher_id"]

    var title: String
    var description: String
    var category: String
    var thumbnailUrl: String?
    var published: Bool
    /// `nil`: the caller teaches it.
    var teacherId: String?

    /// - Throws: `400 validation_failed` naming every invalid member.
    init(_ body: [String: JSONValue]) throws {
        var reader = JSONObjectReader(body)
        let title = reader.string("title", required: true, length: 1...200)
        description = reader.string("description", length: 0...5000) ?? ""
        let category = reader.oneOf("category", required: true, CourseRecord.categories)
        thumbnailUrl = reader.nullableURL("thumbnail_url").value
        published = reader.bool("published") ?? false
        teacherId = reader.string("teacher_id", length: 1...64)
        (self.title, self.category) = try reader.values(title, category)
    }
}

extension CourseChanges {
    static let keys: Set<String> = CourseDraft.keys.union(["version"])

    /// Reads a `PATCH /v1/courses/{id}` body whose members were checked against what the caller
    /// may write.
    ///
    /// - Throws: `400 validation_failed` naming every invalid member.
    init(_ body: [String: JSONValue]) throws {
        self.init()
        var reader = JSONObjectReader(body)
        title = reader.string("title", length: 1...200)
        description = reader.string("description", length: 0...5000)
        category = reader.oneOf("category", CourseRecord.categories)
        thumbnailUrl = reader.nullableURL("thumbnail_url")
        published = reader.bool("published")
        teacherId = reader.string("teacher_id", length: 1...64)
        try reader.throwIfInvalid()
    }
}
