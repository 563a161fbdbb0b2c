import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/courses`: list, search, create, read, update, delete.
struct CourseRoutes: RouteModule {
    let deps: Dependencies

    var authenticated: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/v1/courses", use: list)
        routes.post("/v1/courses", use: create)
        routes.get("/v1/courses/search", use: search)
        routes.get("/v1/courses/{id}", use: get)
        routes.patch("/v1/courses/{id}", use: update)
        routes.delete("/v1/courses/{id}", use: delete)
        return routes
    }

    @Sendable func list(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try await page(request, context: context, query: nil)
    }

    @Sendable func search(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try await page(request, context: context, query: SearchQuery.required(request))
    }

    private func page(_ request: Request, context: EduGoRequestContext, query: String?) async throws -> Response {
        let identity = try context.requireIdentity()
        let pagination = try Pagination(request)
        let category = try Self.category(request)
        // Kept under the caller's visibility class, which the list's own SQL comes from: a
        // student's page is every student's.
        let key = CachedPage.key([
            "courses", CourseAccess.visibility(identity).description, category ?? "", query ?? "",
            String(pagination.limit), String(pagination.page),
            pagination.after.map { "\($0.timestamp)/\($0.id)" } ?? "",
        ])
        return try await CachedPage.respond(request, cache: await deps.tenants.pages(for: identity.tenantID), key: key) {
            try await identity.store.coursePage(visibleTo: identity, category: category, query: query, pagination: pagination)
                .map(CourseResponse.init)
        }
    }

    @Sendable func get(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<CourseResponse> {
        let identity = try context.requireIdentity()
        let id = try request.pathParameter("id", context)
        let course = CourseResponse(try await identity.store.course(id, visibleTo: identity))
        return APIResponse(course, caching: .revalidate, version: course.version)
    }

    @Sendable func create(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<CourseResponse> {
        let deps = self.deps
        return try await deps.write(request, context) { identity, body in
            var writable = CourseDraft.keys
            if !identity.role.choosesCourseTeachers { writable.remove("teacher_id") }
            try JSONObjectReader.checkKeys(body, of: CourseDraft.self, writable: writable)
            let draft = try RequestBody.decode(CourseDraft.self, from: body)
            let now = deps.now
            let course = CourseRecord(
                id: RecordID.make(), title: draft.title, description: draft.description ?? "", category: draft.category,
                thumbnailUrl: draft.thumbnailUrl.value, published: draft.published ?? false,
                teacherId: draft.teacherId ?? identity.userID,
                version: 1, createdAt: now, updatedAt: now)
            let created = CourseResponse(try await identity.store.createCourse(course, by: identity))
            return APIResponse(
                created, status: .created, caching: .revalidate, version: 1, location: "/v1/courses/\(created.id)")
        }
    }

    @Sendable func update(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<CourseResponse> {
        let deps = self.deps
        let id = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            var writable = CoursePatch.keys
            if !identity.role.choosesCourseTeachers { writable.remove("teacher_id") }
            try JSONObjectReader.checkKeys(body, of: CoursePatch.self, writable: writable)
            let base = try VersionPrecondition.required(request, body: body)
            let changes = try RequestBody.decode(CoursePatch.self, from: body).changes
            let updated = CourseResponse(
                try await identity.store.updateCourse(id, by: identity, changes: changes, base: base, now: deps.now))
            return APIResponse(updated, caching: .revalidate, version: updated.version)
        }
    }

    @Sendable func delete(_ request: Request, context: EduGoRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        let id = try request.pathParameter("id", context)
        try await identity.store.deleteCourse(id, by: identity)
        // The deleted lessons' media files go too.
        try? await identity.store.sweepMedia(in: deps.media)
        return .noContent
    }

    private static func category(_ request: Request) throws -> String? {
        guard let category = request.query("category") else { return nil }
        guard CourseRecord.categories.contains(category) else {
            throw APIError.validation(
                field: "category", code: "invalid_value",
                message: "must be one of: \(CourseRecord.categories.joined(separator: ", "))")
        }
        return category
    }
}
