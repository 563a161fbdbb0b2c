import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/users`: the directory (admins and teachers), profiles, and admin user management.
///
/// A student asking for another user's profile gets 404, as if the user did not exist.
struct UserRoutes: RouteModule {
    let deps: Dependencies

    var authenticated: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/v1/users", use: list)
        routes.post("/v1/users", use: create)
        routes.get("/v1/users/search", use: search)
        routes.get("/v1/users/me", use: me)
        routes.patch("/v1/users/me", use: updateMe)
        routes.get("/v1/users/me/courses", use: myCourses)
        routes.get("/v1/users/{id}", use: get)
        routes.patch("/v1/users/{id}", use: update)
        routes.delete("/v1/users/{id}", use: delete)
        return routes
    }

    @Sendable func list(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<ListPage<UserResponse>> {
        try await page(request, context: context, query: SearchQuery.optional(request))
    }

    @Sendable func search(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<ListPage<UserResponse>> {
        try await page(request, context: context, query: SearchQuery.required(request))
    }

    private func page(
        _ request: Request, context: EduGoRequestContext, query: String?
    ) async throws -> APIResponse<ListPage<UserResponse>> {
        let identity = try context.requireIdentity()
        let pagination = try Pagination(request)
        var role: UserRecord.Role?
        if let raw = request.query("role") {
            guard let parsed = UserRecord.Role(rawValue: raw) else {
                throw APIError.validation(field: "role", code: "invalid_value", message: "must be student, teacher or admin")
            }
            role = parsed
        }
        return APIResponse(try await identity.store.userPage(
            role: role, query: query, pagination: pagination, visibleTo: identity)
            .map(UserResponse.init))
    }

    @Sendable func create(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<UserResponse> {
        let deps = self.deps
        return try await deps.write(request, context) { identity, body in
            try JSONObjectReader.checkKeys(body, of: NewAccount.self, writable: NewAccount.keys)
            let account = try RequestBody.decode(NewAccount.self, from: body)
            guard let role = account.accountRole else { throw APIError.internalError }
            let user = try await AccountWriter(deps: deps).createAccount(
                by: identity, email: account.email, password: account.password, firstName: account.firstName,
                lastName: account.lastName, role: role)
            return APIResponse(UserResponse(user), status: .created, version: user.version, location: "/v1/users/\(user.id)")
        }
    }

    @Sendable func me(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<UserResponse> {
        let identity = try context.requireIdentity()
        return APIResponse(UserResponse(identity.user), version: identity.user.version, conditional: false)
    }

    @Sendable func updateMe(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<UserResponse> {
        let deps = self.deps
        return try await deps.write(request, context) { identity, body in
            try await Self.applyUpdate(deps: deps, request: request, identity: identity, targetID: identity.userID, body: body)
        }
    }

    @Sendable func get(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<UserResponse> {
        let identity = try context.requireIdentity()
        let id = try request.pathParameter("id", context)
        let user = try await identity.store.user(id, visibleTo: identity)
        return APIResponse(UserResponse(user), version: user.version)
    }

    @Sendable func update(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<UserResponse> {
        let deps = self.deps
        let id = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            try await Self.applyUpdate(deps: deps, request: request, identity: identity, targetID: id, body: body)
        }
    }

    @Sendable func delete(_ request: Request, context: EduGoRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let id = try request.pathParameter("id", context)
        try await identity.store.deleteUser(id, by: identity)
        return .noContent
    }

    @Sendable func myCourses(
        _ request: Request, context: EduGoRequestContext
    ) async throws -> APIResponse<ListPage<EnrolledCourseResponse>> {
        let identity = try context.requireIdentity()
        let pagination = try Pagination(request)
        let page = try await identity.store.enrolledCoursePage(of: identity, pagination: pagination)
        return APIResponse(page.map(EnrolledCourseResponse.init))
    }

    /// Self: names only. Admin: names, email and role of anyone in the tenant.
    private static func applyUpdate(
        deps: Dependencies, request: Request, identity: Identity, targetID: String, body: [String: JSONValue]
    ) async throws -> APIResponse<UserResponse> {
        let writable = identity.managesAccount(targetID) ? UserPatch.keys : UserPatch.selfWritable
        try JSONObjectReader.checkKeys(body, of: UserPatch.self, writable: writable)
        let base = try VersionPrecondition.required(request, body: body)
        let changes = try RequestBody.decode(UserPatch.self, from: body).changes
        let updated = try await identity.store.updateUser(
            targetID, by: identity, changes: changes, base: base, now: deps.now)
        return APIResponse(UserResponse(updated), version: updated.version)
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
