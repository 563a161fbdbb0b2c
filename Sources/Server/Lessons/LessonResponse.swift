import EduGoServerStore
import Foundation

/// The public representation of a lesson.
struct LessonResponse: Encodable, Sendable, JSONWritable {
    var id: String
    var courseId: String
    var title: String
    var content: String
    var order: Int
    var durationMinutes: Int
    var videoUrl: String?
    var version: Int
    var createdAt: Date
    var updatedAt: Date
    /// The lesson's media, when it has some (the member is left out otherwise).
    var media: LessonMediaResponse?

    init(_ record: LessonRecord) {
        self.id = record.id
        self.courseId = record.courseId
        self.title = record.title
        self.content = record.content
        self.order = record.order
        self.durationMinutes = record.durationMinutes
        self.videoUrl = record.videoUrl
        self.version = record.version
        self.createdAt = record.createdAt
        self.updatedAt = record.updatedAt
        self.media = LessonMediaResponse(record)
    }

    enum CodingKeys: String, CodingKey {
        case id, courseId, title, content, order, durationMinutes, videoUrl, version, createdAt, updatedAt, media
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(courseId, forKey: .courseId)
        try container.encode(title, forKey: .title)
        try container.encode(content, forKey: .content)
        try container.encode(order, forKey: .order)
        try container.encode(durationMinutes, forKey: .durationMinutes)
        try container.encode(videoUrl, forKey: .videoUrl)  // null when absent
        try container.encode(version, forKey: .version)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(media, forKey: .media)
    }

    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("id")
        json.string(id)
        json.key("course_id")
        json.string(courseId)
        json.key("title")
        json.string(title)
        json.key("content")
        json.string(content)
        json.key("order")
        json.int(order)
        json.key("duration_minutes")
        json.int(durationMinutes)
        json.key("video_url")
        json.string(videoUrl)
        json.key("version")
        json.int(version)
        json.key("created_at")
        json.date(createdAt)
        json.key("updated_at")
        json.date(updatedAt)
        if let media {
            json.key("media")
            json.value(media)
        }
        json.endObject()
    }
}

/// `GET /v1/courses/{id}/lessons`.
struct LessonList: Encodable, Sendable, JSONWritable {
    var items: [LessonResponse]

    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("items")
        json.array(items)
        json.endObject()
    }
}

extension LessonRecord: SyncRepresentable {
    /// How the change feed carries a lesson.
    var syncRepresentation: any Encodable & Sendable { LessonResponse(self) }
}
