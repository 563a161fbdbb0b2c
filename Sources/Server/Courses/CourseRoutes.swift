import Foundation
import GRDB
import Hummingbird

/// `/v1/courses`: list, search, create, read, update, delete.
struct CourseRoutes {
    let deps: Dependencies

    static let createKeys: Set<String> = ["title", "description", "category", "thumbnail_url", "published", "teacher_id"]
    static let updateKeys: Set<String> = createKeys.union(["version"])

    func register(in routes: inout RouteTable) {
        routes.add(.get, "/v1/courses", .authenticated, list)
        routes.add(.post, "/v1/courses", .authenticated, create)
        routes.add(.get, "/v1/courses/search", .authenticated, search)
        routes.add(.get, "/v1/courses/{id}", .authenticated, get)
        routes.add(.patch, "/v1/courses/{id}", .authenticated, update)
        routes.add(.delete, "/v1/courses/{id}", .authenticated, delete)
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
        let result = try await identity.tenant.writer.read { db -> Page<CourseResponse> in
            var filtered = CourseAccess.visible(identity)
            if let category { filtered = filtered.filter(CourseRecord.Columns.category == category) }
            if let query {
                filtered = filtered.filter(sql: "search_text LIKE ? ESCAPE '\\'", arguments: [SearchText.likePattern(query)])
            }
            let total = try filtered.fetchCount(db)
            let records = try filtered
                .order(CourseRecord.Columns.createdAt.desc, CourseRecord.Columns.id)
                .limit(pagination.limit, offset: pagination.offset)
                .fetchAll(db)
            let counts = try Self.lessonCounts(db, courseIDs: records.map(\.id))
            return Page(
                items: records.map { CourseResponse($0, lessonCount: counts[$0.id] ?? 0) },
                page: pagination.page, limit: pagination.limit, total: total)
        }
        return try JSONResponse.make(result, caching: .revalidate)
    }

    @Sendable func get(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let id = try request.pathParameter("id", context)
        let course = try await identity.tenant.writer.read { db in
            try CourseResponse.load(db, CourseAccess.fetchVisible(db, id: id, identity: identity))
        }
        return try ETag.respond(request, version: course.version, caching: .revalidate) { course }
    }

    @Sendable func create(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        return try await deps.write(request, context) { identity, body in
            guard identity.role != .student else { throw APIError.forbidden("Only teachers and admins create courses.") }
            var writable = Self.createKeys
            if identity.role != .admin { writable.remove("teacher_id") }
            try JSONObjectReader.checkKeys(body, known: Self.createKeys, writable: writable)
            var reader = JSONObjectReader(body)
            let title = reader.string("title", required: true, length: 1...200)
            let description = reader.string("description", length: 0...5000) ?? ""
            let category = reader.oneOf("category", required: true, CourseRecord.categories)
            let thumbnail = reader.nullableURL("thumbnail_url")
            let published = reader.bool("published") ?? false
            let teacherID = reader.string("teacher_id", length: 1...64) ?? identity.userID
            try reader.throwIfInvalid()
            let now = deps.now
            var course = CourseRecord(
                id: RecordID.make(), title: title ?? "", description: description,
                category: category ?? "", thumbnailUrl: thumbnail.value, published: published, teacherId: teacherID,
                searchText: "", version: 1, createdAt: now, updatedAt: now)
            course.refreshDerivedColumns()
            let created = try await identity.tenant.writer.write { [course] db in
                try Self.requireTeacher(db, id: course.teacherId)
                try course.insert(db)
                return CourseResponse(course, lessonCount: 0)
            }
            return try EncodedResponse.json(
                created, status: .created, caching: .revalidate,
                headers: ["Location": "/v1/courses/\(created.id)", "ETag": ETag.header(version: 1)])
        }
    }

    @Sendable func update(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let deps = self.deps
        let id = try request.pathParameter("id", context)
        return try await deps.write(request, context) { identity, body in
            var writable = Self.updateKeys
            if identity.role != .admin { writable.remove("teacher_id") }
            try JSONObjectReader.checkKeys(body, known: Self.updateKeys, writable: writable)
            guard let precondition = try VersionPrecondition.from(request, body: body) else { throw APIError.internalError }
            var reader = JSONObjectReader(body)
            let title = reader.string("title", length: 1...200)
            let description = reader.string("description", length: 0...5000)
            let category = reader.oneOf("category", CourseRecord.categories)
            let thumbnail = reader.nullableURL("thumbnail_url")
            let published = reader.bool("published")
            let teacherID = reader.string("teacher_id", length: 1...64)
            try reader.throwIfInvalid()
            let now = deps.now
            let updated = try await identity.tenant.writer.write { db -> CourseResponse in
                var course = try CourseAccess.fetchEditable(db, id: id, identity: identity)
                try precondition.check(currentVersion: course.version, current: CourseResponse.load(db, course))
                let before = course
                if let title { course.title = title }
                if let description { course.description = description }
                if let category { course.category = category }
                if case .value(let url) = thumbnail { course.thumbnailUrl = url }
                if case .null = thumbnail { course.thumbnailUrl = nil }
                if let published { course.published = published }
                if let teacherID, teacherID != course.teacherId {
                    try Self.requireTeacher(db, id: teacherID)
                    course.teacherId = teacherID
                }
                if !course.hasSameContent(as: before) {
                    course.refreshDerivedColumns()
                    course.version += 1
                    course.updatedAt = now
                    try course.update(db)
                }
                return try CourseResponse.load(db, course)
            }
            return try EncodedResponse.json(
                updated, caching: .revalidate, headers: ["ETag": ETag.header(version: updated.version)])
        }
    }

    @Sendable func delete(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let id = try request.pathParameter("id", context)
        try await identity.tenant.writer.write { db in
            let course = try CourseAccess.fetchEditable(db, id: id, identity: identity)
            try course.delete(db)
        }
        return JSONResponse.empty()
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

    private static func requireTeacher(_ db: Database, id: String) throws {
        let role = try String.fetchOne(db, sql: "SELECT role FROM users WHERE id = ?", arguments: [id])
        guard role == "teacher" || role == "admin" else {
            throw APIError.validation(field: "teacher_id", code: "invalid_value", message: "must be a teacher or admin of this tenant")
        }
    }

    static func lessonCounts(_ db: Database, courseIDs: [String]) throws -> [String: Int] {
        guard !courseIDs.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT course_id, COUNT(*) AS n FROM lessons WHERE course_id IN (\(databaseQuestionMarks(count: courseIDs.count))) GROUP BY course_id",
            arguments: StatementArguments(courseIDs))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["course_id"] as String, $0["n"] as Int) })
    }
}

extension CourseRecord {
    func hasSameContent(as other: CourseRecord) -> Bool {
        title == other.title && description == other.description && category == other.category
            && thumbnailUrl == other.thumbnailUrl && published == other.published && teacherId == other.teacherId
    }
}

extension JSONObjectReader.Nullable {
    var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }
}
