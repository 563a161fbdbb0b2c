import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/users`: the directory (admins and teachers), profiles, and admin user management.
///
/// A student asking for another user's profile gets 404, as if the user did not exist.
struct UserRoutes {
    let deps: Dependencies

    func register(in routes: inout RouteTable) {
        routes.add(.get, "/v1/users", .authenticated, list)
        routes.add(.post, "/v1/users", .authenticated, create)
        routes.add(.get, "/v1/users/search", .authenticated, search)
        routes.add(.get, "/v1/users/me", .authenticated, me)
        routes.add(.patch, "/v1/users/me", .authenticated, updateMe)
        routes.add(.get, "/v1/users/me/courses", .authenticated, myCourses)
        routes.add(.get, "/v1/users/{id}", .authenticated, get)
        routes.add(.patch, "/v1/users/{id}", .authenticated, update)
        routes.add(.delete, "/v1/users/{id}", .authenticated, delete)
    }

    @Sendable func list(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try await page(request, context: context, query: SearchQuery.optional(request))
    }

    @Sendable func search(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try await page(request, context: context, query: SearchQuery.required(request))
    }

    private func page(_ request: Request, context: EduGoRequestContext, query: String?) async throws -> Response {
        let identity = try context.requireIdentity()
        guard identity.role != .student else { throw APIError.forbidden("Only teachers and admins list users.") }
        let pagination = try Pagination(request)
        var role: UserRecord.Role?
        if let raw = request.query("role") {
            guard let parsed = UserRecord.Role(rawValue: raw) else {
                throw APIError.validation(field: "role", code: "invalid_value", message: "must be student, teacher or admin")
            }
            role = parsed
        }
        let result = try await identity.store.userPage(role: role, query: query, pagination: pagination)
            .map(UserResponse.init)
        return try JSONResponse.make(result)
    }

    @Sendable func create(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        return try await deps.write(request, context) { identity, body in
            guard identity.role == .admin else { throw APIError.forbidden("Only admins create users.") }
            let account = try NewAccount(body)
            let user = try await AccountWriter(deps: deps).createAccount(
                in: identity.store, email: account.email, password: account.password, firstName: account.firstName,
                lastName: account.lastName, role: account.role, verified: true)
            return try EncodedResponse.json(
                UserResponse(user), status: .created,
                headers: ["Location": "/v1/users/\(user.id)", "ETag": ETag.header(version: user.version)])
        }
    }

    @Sendable func me(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        var headers = HTTPFields()
        headers[.eTag] = ETag.header(version: identity.user.version)
        return try JSONResponse.make(UserResponse(identity.user), headers: headers)
    }

    @Sendable func updateMe(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        return try await deps.write(request, context) { identity, body in
            try await Self.applyUpdate(deps: deps, request: request, identity: identity, targetID: identity.userID, body: body)
        }
    }

    @Sendable func get(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let id = try request.pathParameter("id", context)
        let user = try await identity.store.user(id, visibleTo: identity)
        return try ETag.respond(request, version: user.version, caching: .noStore) { UserResponse(user) }
    }

    @Sendable func update(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        let id = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            try await Self.applyUpdate(deps: deps, request: request, identity: identity, targetID: id, body: body)
        }
    }

    @Sendable func delete(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let id = try request.pathParameter("id", context)
        try await identity.store.deleteUser(id, by: identity)
        return JSONResponse.empty()
    }

    @Sendable func myCourses(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let pagination = try Pagination(request)
        let page = try await identity.store.enrolledCoursePage(of: identity, pagination: pagination)
        return try JSONResponse.make(page.map(EnrolledCourseResponse.init))
    }

    /// Self: names only. Admin: names, email and role of anyone in the tenant.
    private static func applyUpdate(
        deps: Dependencies, request: Request, identity: Identity, targetID: String, body: [String: JSONValue]
    ) async throws -> EncodedResponse {
        let writable = identity.role == .admin && targetID != identity.userID ? UserChanges.keys : UserChanges.selfWritable
        try JSONObjectReader.checkKeys(body, known: UserChanges.keys, writable: writable)
        let base = try VersionPrecondition.required(request, body: body)
        let changes = try UserChanges(body)
        let updated = try await identity.store.updateUser(
            targetID, by: identity, changes: changes, base: base, now: deps.now)
        return try EncodedResponse.json(UserResponse(updated), headers: ["ETag": ETag.header(version: updated.version)])
    }
}

/// An enrolled course with the learner's progress through it.
struct EnrolledCourseResponse: Encodable, Sendable {
    var course: CourseResponse
    var enrolledAt: Date
    var completedLessons: Int
    var totalLessons: Int
    var percent: Double

    init(_ enrolled: EnrolledCourse) {
        course = CourseResponse(enrolled.course, lessonCount: enrolled.lessonCount)
        enrolledAt = enrolled.enrollment.enrolledAt
        completedLessons = enrolled.completedLessons
        totalLessons = enrolled.lessonCount
        percent = CourseProgressResponse.percent(completed: enrolled.completedLessons, total: enrolled.lessonCount)
    }
}
