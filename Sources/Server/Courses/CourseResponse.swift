import EduGoServerStore
import Foundation

/// The public representation of a course.
struct CourseResponse: Encodable, Sendable, SnakeCaseKeyed, JSONWritable {
    var id: String
    var title: String
    var description: String
    var category: String
    var thumbnailUrl: String?
    var published: Bool
    var teacherId: String
    var lessonCount: Int
    var version: Int
    var createdAt: Date
    var updatedAt: Date

    /// The representation of a course the store read with its lesson count.
    init(_ course: CourseWithLessonCount) {
        self.init(course.course, lessonCount: course.lessonCount)
    }

    init(_ record: CourseRecord, lessonCount: Int) {
        self.id = record.id
        self.title = record.title
        self.description = record.description
        self.category = record.category
        self.thumbnailUrl = record.thumbnailUrl
        self.published = record.published
        self.teacherId = record.teacherId
        self.lessonCount = lessonCount
        self.version = record.version
        self.createdAt = record.createdAt
        self.updatedAt = record.updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, title, description, category, published, version
        case thumbnailUrl = "thumbnail_url"
        case teacherId = "teacher_id"
        case lessonCount = "lesson_count"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(category, forKey: .category)
        try container.encode(thumbnailUrl, forKey: .thumbnailUrl)  // null when absent
        try container.encode(published, forKey: .published)
        try container.encode(teacherId, forKey: .teacherId)
        try container.encode(lessonCount, forKey: .lessonCount)
        try container.encode(version, forKey: .version)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }

    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("id")
        json.string(id)
        json.key("title")
        json.string(title)
        json.key("description")
        json.string(description)
        json.key("category")
        json.string(category)
        json.key("thumbnail_url")
        json.string(thumbnailUrl)
        json.key("published")
        json.bool(published)
        json.key("teacher_id")
        json.string(teacherId)
        json.key("lesson_count")
        json.int(lessonCount)
        json.key("version")
        json.int(version)
        json.key("created_at")
        json.date(createdAt)
        json.key("updated_at")
        json.date(updatedAt)
        json.endObject()
    }
}

extension CourseWithLessonCount: SyncRepresentable {
    /// How the change feed carries a course.
    var syncRepresentation: any Encodable & Sendable { CourseResponse(self) }
}
