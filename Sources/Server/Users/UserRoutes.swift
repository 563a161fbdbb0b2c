import Foundation
import GRDB
import Hummingbird

/// `/v1/users`: the directory (admins and teachers), profiles, and admin user management.
///
/// A student asking for another user's profile gets 404, as if the user did not exist.
struct UserRoutes {
    let deps: Dependencies

    static let createKeys: Set<String> = ["email", "password", "first_name", "last_name", "role"]
    static let updateKeys: Set<String> = ["email", "first_name", "last_name", "role", "version"]
    static let selfWritable: Set<String> = ["first_name", "last_name", "version"]

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
        let result = try await identity.tenant.writer.read { [role] db -> Page<UserResponse> in
            var filtered = UserRecord.all()
            if let role { filtered = filtered.filter(UserRecord.Columns.role == role.rawValue) }
            if let query {
                filtered = filtered.filter(sql: "search_text LIKE ? ESCAPE '\\'", arguments: [SearchText.likePattern(query)])
            }
            let total = try filtered.fetchCount(db)
            let users = try filtered.order(UserRecord.Columns.createdAt, UserRecord.Columns.id)
                .limit(pagination.limit, offset: pagination.offset).fetchAll(db)
            return Page(items: users.map(UserResponse.init), page: pagination.page, limit: pagination.limit, total: total)
        }
        return try JSONResponse.make(result)
    }

    @Sendable func create(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        return try await deps.write(request, context) { identity, body in
            guard identity.role == .admin else { throw APIError.forbidden("Only admins create users.") }
            try JSONObjectReader.checkKeys(body, known: Self.createKeys, writable: Self.createKeys)
            var reader = JSONObjectReader(body)
            let email = reader.string("email", required: true, length: 3...254)
            let password: String?
            if case .string(let raw) = body["password"] { password = raw } else {
                password = reader.string("password", required: true, length: 8...72)
            }
            let firstName = reader.string("first_name", required: true, length: 1...100)
            let lastName = reader.string("last_name", required: true, length: 1...100)
            let role = reader.oneOf("role", required: true, UserRecord.Role.allCases.map(\.rawValue))
            // Validated as sent: a control or format character anywhere is refused, not trimmed.
            if email != nil, case .string(let raw)? = body["email"] { reader.add(UserValidation.email(raw)) }
            if let password { reader.add(UserValidation.password(password)) }
            try reader.throwIfInvalid()
            guard let email, let password, let firstName, let lastName, let role, let parsedRole = UserRecord.Role(rawValue: role)
            else { throw APIError.internalError }
            let user = try await AccountWriter(deps: deps).createAccount(
                in: identity.tenant, email: email, password: password, firstName: firstName, lastName: lastName,
                role: parsedRole, verified: true)
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
        let user = try await identity.tenant.writer.read { db in try Self.fetchVisible(db, id: id, identity: identity) }
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
        try await identity.tenant.writer.write { db in
            let user = try Self.fetchVisible(db, id: id, identity: identity)
            // The role read at authentication may be stale: re-read it in this transaction.
            guard try AdminGuard.isAdmin(db, userID: identity.userID) else {
                throw APIError.forbidden("Only admins delete users.")
            }
            guard user.id != identity.userID else {
                throw APIError(.conflict, code: "cannot_delete_self", detail: "Admins cannot delete their own account.")
            }
            guard try CourseRecord.filter(CourseRecord.Columns.teacherId == user.id).fetchCount(db) == 0 else {
                throw APIError(
                    .conflict, code: "user_owns_courses", detail: "Reassign or delete this teacher's courses first.")
            }
            if user.role == .admin { try AdminGuard.keepOneAdmin(db, losing: user.id) }
            try user.delete(db)
        }
        return JSONResponse.empty()
    }

    @Sendable func myCourses(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let pagination = try Pagination(request)
        let page = try await TenantStore(identity.tenant).enrolledCoursePage(of: identity, pagination: pagination)
        return try JSONResponse.make(page.map(EnrolledCourseResponse.init))
    }

    /// Self: names only. Admin: names, email and role of anyone in the tenant.
    private static func applyUpdate(
        deps: Dependencies, request: Request, identity: Identity, targetID: String, body: [String: JSONValue]
    ) async throws -> EncodedResponse {
        // Admins manage other accounts; on their own they change only their name, so an admin
        // cannot lock themselves out by demoting themselves or changing their sign-in email.
        let writable = identity.role == .admin && targetID != identity.userID ? updateKeys : selfWritable
        try JSONObjectReader.checkKeys(body, known: updateKeys, writable: writable)
        guard let precondition = try VersionPrecondition.from(request, body: body) else { throw APIError.internalError }
        var reader = JSONObjectReader(body)
        let firstName = reader.string("first_name", length: 1...100)
        let lastName = reader.string("last_name", length: 1...100)
        let email = reader.string("email", length: 3...254)
        if email != nil, case .string(let raw)? = body["email"] { reader.add(UserValidation.email(raw)) }
        let role = reader.oneOf("role", UserRecord.Role.allCases.map(\.rawValue)).flatMap(UserRecord.Role.init)
        try reader.throwIfInvalid()
        let now = deps.now
        let updated = try await identity.tenant.writer.write { db -> UserRecord in
            var user = try fetchVisible(db, id: targetID, identity: identity)
            guard identity.role == .admin || user.id == identity.userID else {
                throw APIError.forbidden("You may only change your own profile.")
            }
            // Admin-only changes re-read the caller's role in this transaction: a role read at
            // authentication may have been taken away by a concurrent request since.
            if user.id != identity.userID, try !AdminGuard.isAdmin(db, userID: identity.userID) {
                throw APIError.forbidden("You may only change your own profile.")
            }
            try precondition.check(currentVersion: user.version, current: UserResponse(user))
            let before = user
            if let firstName { user.firstName = firstName }
            if let lastName { user.lastName = lastName }
            if let role, role != user.role {
                // A course's teacher must stay a teacher or admin, as course create and update require.
                if role == .student, try CourseRecord.filter(CourseRecord.Columns.teacherId == user.id).fetchCount(db) > 0 {
                    throw APIError(
                        .conflict, code: "user_owns_courses",
                        detail: "Reassign this teacher's courses before making them a student.")
                }
                if user.role == .admin { try AdminGuard.keepOneAdmin(db, losing: user.id) }
                user.role = role
            }
            if let email = email.map(EmailAddress.normalized), UserRecord.emailKey(email) != user.emailKey || email != user.email {
                let key = UserRecord.emailKey(email)
                let taken = try UserRecord.filter(UserRecord.Columns.emailKey == key && UserRecord.Columns.id != user.id).fetchCount(db) > 0
                if taken { throw APIError.emailTaken }
                user.email = email
            }
            if user.firstName != before.firstName || user.lastName != before.lastName || user.role != before.role
                || user.email != before.email
            {
                user.refreshDerivedColumns()
                user.version += 1
                user.updatedAt = now
                try user.update(db)
            }
            return user
        }
        return try EncodedResponse.json(UserResponse(updated), headers: ["ETag": ETag.header(version: updated.version)])
    }

    /// Admins and teachers see everyone in the tenant; students only themselves.
    static func fetchVisible(_ db: Database, id: String, identity: Identity) throws -> UserRecord {
        guard identity.role != .student || id == identity.userID, let user = try UserRecord.fetchOne(db, key: id) else {
            throw APIError.notFound("user")
        }
        return user
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
