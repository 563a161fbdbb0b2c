import EduGoServerStore

/// The body of `POST /v1/courses`.
struct CourseDraft: ValidatedBody, Sendable {
    static let keys = Set(CodingKeys.allCases.map(\.rawValue))

    var title: String
    var description: String?
    var category: String
    var thumbnailUrl: Patch<String>
    var published: Bool?
    /// `nil`: the caller teaches it.
    var teacherId: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, description, category, published
        case thumbnailUrl = "thumbnail_url"
        case teacherId = "teacher_id"
    }

    /// The rules of ``CoursePatch``: a new course's members are checked as a change's are.
    mutating func validate(_ validation: inout FieldValidation) {
        var members = CoursePatch(
            title: title, description: description, category: category, thumbnailUrl: thumbnailUrl,
            published: published, teacherId: teacherId)
        members.validate(&validation)
        title = members.title ?? title
        description = members.description
        category = members.category ?? category
        teacherId = members.teacherId
    }
}

/// The body of `PATCH /v1/courses/{id}`: a member left out keeps the stored value.
struct CoursePatch: ValidatedBody, Sendable {
    static let keys = CourseDraft.keys.union(["version"])

    var title: String?
    var description: String?
    var category: String?
    var thumbnailUrl: Patch<String>
    var published: Bool?
    var teacherId: String?

    typealias CodingKeys = CourseDraft.CodingKeys

    mutating func validate(_ validation: inout FieldValidation) {
        validation.text(&title, CodingKeys.title, length: 1...200)
        validation.text(&description, CodingKeys.description, length: 0...5000)
        validation.oneOf(&category, CodingKeys.category, CourseRecord.categories)
        validation.url(thumbnailUrl, CodingKeys.thumbnailUrl)
        validation.member(CodingKeys.published)
        validation.identifier(&teacherId, CodingKeys.teacherId)
    }

    /// The changes the store applies.
    var changes: CourseChanges {
        CourseChanges(
            title: title, description: description, category: category, thumbnailUrl: thumbnailUrl,
            published: published, teacherId: teacherId)
    }
}
