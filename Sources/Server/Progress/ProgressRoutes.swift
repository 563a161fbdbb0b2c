import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/courses/{id}/progress`: read a learner's progress; upsert one lesson's record.
struct ProgressRoutes {
    let deps: Dependencies

    static let keys: Set<String> = ["lesson_id", "completed", "watched_seconds", "version"]
    /// A day of video is more than any lesson holds; larger values are client bugs.
    static let maxWatchedSeconds = 86_400

    func register(in routes: inout RouteTable) {
        routes.add(.get, "/v1/courses/{id}/progress", .authenticated, get)
        routes.add(.put, "/v1/courses/{id}/progress", .authenticated, put)
    }

    /// Own progress; the course's teacher or an admin may name another learner with `user_id`.
    @Sendable func get(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let requested = request.query("user_id")
        let result = try await identity.store.progress(inCourse: courseID, of: requested, visibleTo: identity)
        return try JSONResponse.make(CourseProgressResponse(result), caching: .revalidate)
    }

    /// Upserts one lesson's progress. Only enrolled learners write; the first write needs no
    /// base version, later ones do. `completed_at` is set by the server.
    @Sendable func put(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            try JSONObjectReader.checkKeys(body, known: Self.keys, writable: Self.keys)
            let base = try VersionPrecondition.from(request, body: body)
            let report = try ProgressReport(body)
            let record = try await identity.store.recordProgress(
                report, inCourse: courseID, by: identity, base: base, now: deps.now)
            return try EncodedResponse.json(
                LessonProgressResponse(record), caching: .revalidate, headers: ["ETag": ETag.header(version: record.version)])
        }
    }
}

extension ProgressReport {
    /// Reads a `PUT /v1/courses/{id}/progress` body whose members were checked.
    ///
    /// - Throws: `400 validation_failed` naming every invalid member.
    init(_ body: [String: JSONValue]) throws {
        var reader = JSONObjectReader(body)
        let lessonID = reader.string("lesson_id", required: true, length: 1...64, storesText: false)
        let completed = reader.bool("completed")
        let watchedSeconds = reader.int("watched_seconds", range: 0...ProgressRoutes.maxWatchedSeconds)
        self.init(lessonId: try reader.values(lessonID), completed: completed, watchedSeconds: watchedSeconds)
    }
}
