import Foundation
import GRDB
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
        let result = try await identity.tenant.writer.read { db -> CourseProgressResponse in
            let course = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            var userID = identity.userID
            if let requested, requested != identity.userID {
                guard CourseAccess.canEdit(course, identity: identity) else {
                    throw APIError.forbidden("Only the course's teacher or an admin may see another learner's progress.")
                }
                guard try UserRecord.exists(db, key: requested) else { throw APIError.notFound("user") }
                userID = requested
            }
            return try Self.summary(db, courseID: courseID, userID: userID)
        }
        return try JSONResponse.make(result, caching: .revalidate)
    }

    /// Upserts one lesson's progress. Only enrolled learners write; the first write needs no
    /// base version, later ones do. `completed_at` is set by the server.
    @Sendable func put(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            try JSONObjectReader.checkKeys(body, known: Self.keys, writable: Self.keys)
            let precondition = try VersionPrecondition.from(request, body: body, required: false)
            var reader = JSONObjectReader(body)
            let lessonID = reader.string("lesson_id", required: true, length: 1...64, storesText: false)
            let completed = reader.bool("completed")
            let watched = reader.int("watched_seconds", range: 0...Self.maxWatchedSeconds)
            try reader.throwIfInvalid()
            let now = deps.now
            let userID = identity.userID
            let record = try await identity.tenant.writer.write { db -> ProgressRecord in
                _ = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
                guard let lessonID, (try LessonRecord.fetchOne(db, key: lessonID))?.courseId == courseID else {
                    throw APIError.notFound("lesson")
                }
                guard try EnrollmentRecord.exists(db, key: ["course_id": courseID, "user_id": userID]) else {
                    throw APIError(.forbidden, code: "not_enrolled", detail: "Enroll in the course before recording progress.")
                }
                let existing = try ProgressRecord.fetchOne(db, key: ["user_id": userID, "lesson_id": lessonID])
                guard var record = existing else {
                    let record = ProgressRecord(
                        userId: userID, lessonId: lessonID, courseId: courseID, completed: completed ?? false,
                        completedAt: completed == true ? now : nil, watchedSeconds: watched ?? 0, version: 1,
                        updatedAt: now)
                    try record.insert(db)
                    return record
                }
                guard let precondition else {
                    throw APIError(
                        .preconditionRequired, code: "precondition_required",
                        detail: "This lesson already has progress; name the version the update is based on.")
                }
                try precondition.check(currentVersion: record.version, current: LessonProgressResponse(record))
                let before = record
                if let completed {
                    if completed && !record.completed { record.completedAt = now }
                    if !completed { record.completedAt = nil }
                    record.completed = completed
                }
                if let watched { record.watchedSeconds = watched }
                if record.completed != before.completed || record.watchedSeconds != before.watchedSeconds {
                    record.version += 1
                    record.updatedAt = now
                    try record.update(db)
                }
                return record
            }
            return try EncodedResponse.json(
                LessonProgressResponse(record), caching: .revalidate, headers: ["ETag": ETag.header(version: record.version)])
        }
    }

    static func summary(_ db: Database, courseID: String, userID: String) throws -> CourseProgressResponse {
        let records = try ProgressRecord
            .filter(Column("course_id") == courseID && Column("user_id") == userID)
            .order(Column("updated_at"), Column("lesson_id"))
            .fetchAll(db)
        let total = try LessonRecord.filter(LessonRecord.Columns.courseId == courseID).fetchCount(db)
        let completed = records.filter(\.completed).count
        return CourseProgressResponse(
            courseId: courseID, userId: userID, lessons: records.map(LessonProgressResponse.init),
            completedLessons: completed, totalLessons: total,
            percent: CourseProgressResponse.percent(completed: completed, total: total))
    }
}
