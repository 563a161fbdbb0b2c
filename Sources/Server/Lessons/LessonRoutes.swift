import Foundation
import GRDB
import Hummingbird

/// `/v1/courses/{id}/lessons`: a course's lessons, visible with the course, changed by its
/// teacher or an admin.
struct LessonRoutes {
    let deps: Dependencies

    static let createKeys: Set<String> = ["title", "content", "order", "duration_minutes", "video_url"]
    static let updateKeys: Set<String> = createKeys.union(["version"])

    func register(in routes: inout RouteTable) {
        routes.add(.get, "/v1/courses/{id}/lessons", .authenticated, list)
        routes.add(.post, "/v1/courses/{id}/lessons", .authenticated, create)
        routes.add(.get, "/v1/courses/{id}/lessons/{lessonId}", .authenticated, get)
        routes.add(.patch, "/v1/courses/{id}/lessons/{lessonId}", .authenticated, update)
        routes.add(.delete, "/v1/courses/{id}/lessons/{lessonId}", .authenticated, delete)
    }

    @Sendable func list(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessons = try await identity.tenant.writer.read { db in
            _ = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            return try LessonRecord.filter(LessonRecord.Columns.courseId == courseID)
                .order(LessonRecord.Columns.order, Column("created_at"), Column("id"))
                .fetchAll(db)
        }
        return try JSONResponse.make(LessonList(items: lessons.map(LessonResponse.init)), caching: .revalidate)
    }

    @Sendable func get(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        let lesson = try await identity.tenant.writer.read { db in
            _ = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            return try Self.fetch(db, lessonID: lessonID, courseID: courseID)
        }
        return try ETag.respond(request, version: lesson.version, caching: .revalidate) { LessonResponse(lesson) }
    }

    @Sendable func create(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            try JSONObjectReader.checkKeys(body, known: Self.createKeys, writable: Self.createKeys)
            var reader = JSONObjectReader(body)
            let title = reader.string("title", required: true, length: 1...200)
            let content = reader.string("content", length: 0...100_000) ?? ""
            let order = reader.int("order", range: 1...10_000)
            let duration = reader.int("duration_minutes", range: 0...1440) ?? 0
            let video = reader.nullableURL("video_url")
            try reader.throwIfInvalid()
            let now = deps.now
            let lesson = try await identity.tenant.writer.write { db -> LessonRecord in
                _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
                let last = try Int.fetchOne(
                    db, sql: "SELECT MAX(\"order\") FROM lessons WHERE course_id = ?", arguments: [courseID]) ?? 0
                let lesson = LessonRecord(
                    id: RecordID.make(), courseId: courseID, title: title ?? "", content: content,
                    order: order ?? min(last + 1, 10_000), durationMinutes: duration, videoUrl: video.value, version: 1,
                    createdAt: now, updatedAt: now)
                try lesson.insert(db)
                try CourseAccess.touch(db, courseID: courseID, now: now)
                return lesson
            }
            return try EncodedResponse.json(
                LessonResponse(lesson), status: .created, caching: .revalidate,
                headers: ["Location": "/v1/courses/\(courseID)/lessons/\(lesson.id)", "ETag": ETag.header(version: 1)])
        }
    }

    @Sendable func update(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        return try await deps.write(request, context) { identity, body in
            try JSONObjectReader.checkKeys(body, known: Self.updateKeys, writable: Self.updateKeys)
            guard let precondition = try VersionPrecondition.from(request, body: body) else { throw APIError.internalError }
            var reader = JSONObjectReader(body)
            let title = reader.string("title", length: 1...200)
            let content = reader.string("content", length: 0...100_000)
            let order = reader.int("order", range: 1...10_000)
            let duration = reader.int("duration_minutes", range: 0...1440)
            let video = reader.nullableURL("video_url")
            try reader.throwIfInvalid()
            let now = deps.now
            let lesson = try await identity.tenant.writer.write { db -> LessonRecord in
                _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
                var lesson = try Self.fetch(db, lessonID: lessonID, courseID: courseID)
                try precondition.check(currentVersion: lesson.version, current: LessonResponse(lesson))
                let before = lesson
                if let title { lesson.title = title }
                if let content { lesson.content = content }
                if let order { lesson.order = order }
                if let duration { lesson.durationMinutes = duration }
                if case .value(let url) = video { lesson.videoUrl = url }
                if case .null = video { lesson.videoUrl = nil }
                if !lesson.hasSameContent(as: before) {
                    lesson.version += 1
                    lesson.updatedAt = now
                    try lesson.update(db)
                }
                return lesson
            }
            return try EncodedResponse.json(
                LessonResponse(lesson), caching: .revalidate, headers: ["ETag": ETag.header(version: lesson.version)])
        }
    }

    @Sendable func delete(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        let now = deps.now
        try await identity.tenant.writer.write { db in
            _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
            let lesson = try Self.fetch(db, lessonID: lessonID, courseID: courseID)
            try lesson.delete(db)
            try CourseAccess.touch(db, courseID: courseID, now: now)
        }
        return JSONResponse.empty()
    }

    static func fetch(_ db: Database, lessonID: String, courseID: String) throws -> LessonRecord {
        guard let lesson = try LessonRecord.fetchOne(db, key: lessonID), lesson.courseId == courseID else {
            throw APIError.notFound("lesson")
        }
        return lesson
    }
}

extension LessonRecord {
    func hasSameContent(as other: LessonRecord) -> Bool {
        title == other.title && content == other.content && order == other.order
            && durationMinutes == other.durationMinutes && videoUrl == other.videoUrl
    }
}
