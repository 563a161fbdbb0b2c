import Foundation
import GRDB
import Hummingbird

/// `/v1/courses/{id}/enrollment`: the caller enrolls in or leaves a published course.
struct EnrollmentRoutes {
    let deps: Dependencies

    struct EnrollmentResponse: Encodable, Sendable {
        var courseId: String
        var userId: String
        var enrolledAt: Date
    }

    func register(in routes: inout RouteTable) {
        routes.add(.post, "/v1/courses/{id}/enrollment", .authenticated, enroll)
        routes.add(.delete, "/v1/courses/{id}/enrollment", .authenticated, unenroll)
    }

    /// 201 with the new enrollment; enrolling again answers 200 with the same one.
    @Sendable func enroll(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        let courseID = try request.pathParameter("id", context)
        return try await deps.write(request, context, hasBody: false) { identity, _ in
            let now = deps.now
            let (enrollment, created) = try await identity.tenant.writer.write { db -> (EnrollmentRecord, Bool) in
                let course = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
                if let existing = try EnrollmentRecord.fetchOne(db, key: ["course_id": courseID, "user_id": identity.userID]) {
                    return (existing, false)
                }
                guard course.published else {
                    throw APIError(.conflict, code: "course_not_published", detail: "Only published courses accept enrollments.")
                }
                let enrollment = EnrollmentRecord(courseId: courseID, userId: identity.userID, enrolledAt: now)
                try enrollment.insert(db)
                return (enrollment, true)
            }
            return try EncodedResponse.json(
                EnrollmentResponse(courseId: enrollment.courseId, userId: enrollment.userId, enrolledAt: enrollment.enrolledAt),
                status: created ? .created : .ok, caching: .revalidate,
                headers: ["Location": "/v1/courses/\(courseID)/enrollment"])
        }
    }

    /// 204 whether or not the caller was enrolled: leaving is idempotent. Progress is kept.
    @Sendable func unenroll(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        try await identity.tenant.writer.write { db in
            // The caller's own enrollment goes even when the course was unpublished since (it is
            // still listed in their courses); otherwise an invisible course answers 404.
            let left = try EnrollmentRecord.deleteOne(db, key: ["course_id": courseID, "user_id": identity.userID])
            if !left { _ = try CourseAccess.fetchVisible(db, id: courseID, identity: identity) }
        }
        return JSONResponse.empty()
    }
}
