import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/courses/{id}/lessons`: a course's lessons, visible with the course, changed by its
/// teacher or an admin.
struct LessonRoutes: RouteModule {
    let deps: Dependencies

    var authenticated: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/v1/courses/{id}/lessons", use: list)
        routes.post("/v1/courses/{id}/lessons", use: create)
        routes.get("/v1/courses/{id}/lessons/{lessonId}", use: get)
        routes.patch("/v1/courses/{id}/lessons/{lessonId}", use: update)
        routes.delete("/v1/courses/{id}/lessons/{lessonId}", use: delete)
        return routes
    }

    @Sendable func list(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<LessonList> {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessons = try await identity.store.lessons(ofCourse: courseID, visibleTo: identity)
        return APIResponse(LessonList(items: lessons.map(LessonResponse.init)), caching: .revalidate)
    }

    @Sendable func get(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<LessonResponse> {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        let lesson = try await identity.store.lesson(lessonID, ofCourse: courseID, visibleTo: identity)
        return APIResponse(LessonResponse(lesson), caching: .revalidate, version: lesson.version)
    }

    @Sendable func create(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<LessonResponse> {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            try JSONObjectReader.checkKeys(body, of: NewLesson.self, writable: NewLesson.keys)
            let draft = try RequestBody.decode(NewLesson.self, from: body).draft
            let lesson = try await identity.store.createLesson(draft, inCourse: courseID, by: identity, now: deps.now)
            return APIResponse(
                LessonResponse(lesson), status: .created, caching: .revalidate, version: 1,
                location: "/v1/courses/\(courseID)/lessons/\(lesson.id)")
        }
    }

    @Sendable func update(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<LessonResponse> {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        return try await deps.write(request, context) { identity, body in
            try JSONObjectReader.checkKeys(body, of: LessonPatch.self, writable: LessonPatch.keys)
            let base = try VersionPrecondition.required(request, body: body)
            let changes = try RequestBody.decode(LessonPatch.self, from: body).changes
            let lesson = try await identity.store.updateLesson(
                lessonID, ofCourse: courseID, by: identity, changes: changes, base: base, now: deps.now)
            return APIResponse(LessonResponse(lesson), caching: .revalidate, version: lesson.version)
        }
    }

    @Sendable func delete(_ request: Request, context: EduGoRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        try await identity.store.deleteLesson(lessonID, ofCourse: courseID, by: identity, now: deps.now)
        // The deleted lesson's media file goes too.
        try? await identity.store.sweepMedia(in: deps.media)
        return .noContent
    }
}
