import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/courses/{id}/progress`: read a learner's progress; upsert one lesson's record.
struct ProgressRoutes: RouteModule {
    let deps: Dependencies

    var authenticated: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/v1/courses/{id}/progress", use: get)
        routes.put("/v1/courses/{id}/progress", use: put)
        return routes
    }

    /// Own progress; the course's teacher or an admin may name another learner with `user_id`.
    @Sendable func get(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<CourseProgressResponse> {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let requested = request.query("user_id")
        let result = try await identity.store.progress(inCourse: courseID, of: requested, visibleTo: identity)
        return APIResponse(CourseProgressResponse(result), caching: .revalidate)
    }

    /// Upserts one lesson's progress. Only enrolled learners write; the first write needs no
    /// base version, later ones do. `completed_at` is set by the server.
    @Sendable func put(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<LessonProgressResponse> {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            try JSONObjectReader.checkKeys(body, of: ProgressBody.self, writable: ProgressBody.keys)
            let base = try VersionPrecondition.from(request, body: body)
            let report = try RequestBody.decode(ProgressBody.self, from: body).report
            let record = try await identity.store.recordProgress(
                report, inCourse: courseID, by: identity, base: base, now: deps.now)
            return APIResponse(LessonProgressResponse(record), caching: .revalidate, version: record.version)
        }
    }
}
