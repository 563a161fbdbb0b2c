import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/courses/{id}/enrollment`: the caller enrolls in or leaves a published course.
struct EnrollmentRoutes: RouteModule {
    let deps: Dependencies

    var authenticated: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.post("/v1/courses/{id}/enrollment", use: enroll)
        routes.delete("/v1/courses/{id}/enrollment", use: unenroll)
        return routes
    }

    /// 201 with the new enrollment; enrolling again answers 200 with the same one.
    @Sendable func enroll(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<EnrollmentResponse> {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        return try await deps.write(request, context, hasBody: false) { identity, _ in
            let (enrollment, created) = try await identity.store.enroll(identity, inCourse: courseID, now: deps.now)
            return APIResponse(
                EnrollmentResponse(enrollment), status: created ? .created : .ok, caching: .revalidate,
                location: "/v1/courses/\(courseID)/enrollment")
        }
    }

    /// 204 whether or not the caller was enrolled: leaving is idempotent. Progress is kept.
    @Sendable func unenroll(_ request: Request, context: EduGoRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        try await identity.store.unenroll(identity, fromCourse: courseID)
        return .noContent
    }
}
