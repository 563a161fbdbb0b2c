import EduGoServerStore
import Foundation
import Hummingbird

/// `/__dev/tenants/{id}/requests`: the tenant's request journal (``RequestJournal``), newest
/// first and filtered, and `DELETE` to empty it (dev mode only).
struct JournalRoutes: RouteModule {
    let deps: Dependencies
    let journal: RequestJournal

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/__dev/tenants/{id}/requests", use: list)
        routes.delete("/__dev/tenants/{id}/requests", use: clear)
        return routes
    }

    struct Journal: Encodable {
        /// Newest first.
        var items: [AccessLogEntry]
        /// How many requests of the tenant the journal has seen (dropped ones included): the
        /// `sequence` of the newest, whatever the filters.
        var recorded: Int
        /// How many the journal keeps per tenant.
        var capacity: Int
    }

    /// What a reader asks for; every parameter is optional and they combine.
    struct Filter {
        var method: String?
        var path: PathGlob?
        var status: StatusFilter?
        /// A user id, or an email (compared case-insensitively).
        var user: String?
        var since: Date?
        var after = 0

        /// - Throws: `400 validation_failed` naming each malformed parameter.
        init(_ request: Request) throws {
            var errors: [APIError.FieldError] = []
            if let method = request.query("method") {
                if FaultRule.methods.contains(method.uppercased()) {
                    self.method = method.uppercased()
                } else {
                    errors.append(.init(field: "method", code: "invalid_value", message: "must be one of \(FaultRule.methods.joined(separator: ", "))"))
                }
            }
            if let path = request.query("path") {
                if let glob = PathGlob(path) {
                    self.path = glob
                } else {
                    errors.append(.init(field: "path", code: "invalid_format", message: "must be a path glob such as /v1/courses/*/progress"))
                }
            }
            status = DevListQuery.status(request, errors: &errors)
            if let user = request.query("user") {
                if (1...320).contains(user.count) {
                    self.user = user
                } else {
                    errors.append(.init(field: "user", code: "invalid_format", message: "must be a user id or an email"))
                }
            }
            if let since = request.query("since") {
                if let date = Self.timestamp(since) {
                    self.since = date
                } else {
                    errors.append(.init(field: "since", code: "invalid_format", message: "must be an RFC 3339 date-time"))
                }
            }
            after = DevListQuery.after(request, errors: &errors)
            if !errors.isEmpty { throw APIError.validation(errors) }
        }

        func matches(_ entry: AccessLogEntry) -> Bool {
            guard entry.sequence > after, method.map({ $0 == entry.method }) ?? true,
                status?.matches(entry.status) ?? true, since.map({ entry.timestamp >= $0 }) ?? true
            else { return false }
            if let path, !path.matches(entry.path ?? "") { return false }
            if let user {
                return entry.userID == user || entry.email.map { UserRecord.emailKey($0) == UserRecord.emailKey(user) } == true
            }
            return true
        }

        private static func timestamp(_ text: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: text) { return date }
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.date(from: text)
        }
    }

    /// `GET …/requests`: the tenant's journal, newest first; 404 `tenant_not_found` for a tenant
    /// that does not exist.
    @Sendable func list(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let tenant = try await existingTenant(request, context)
        let filter = try Filter(request)
        let (entries, recorded) = journal.entries(of: tenant)
        return try JSONResponse.make(
            Journal(items: entries.reversed().filter(filter.matches), recorded: recorded, capacity: journal.capacity))
    }

    /// `DELETE …/requests`: 204; the tenant's journal starts again empty (its sequence from 1).
    @Sendable func clear(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        journal.clear(try await existingTenant(request, context))
        return JSONResponse.empty()
    }

    private func existingTenant(_ request: Request, _ context: EduGoRequestContext) async throws -> String {
        guard let id = TenantID(try request.pathParameter("id", context)) else { throw APIError.tenantNotFound }
        return try await deps.tenants.store(for: id).tenantID.rawValue
    }
}
