import EduGoServerStore
import Foundation
import Hummingbird

/// `GET /__dev/requests`: the access log's in-memory ring (the last 500 requests), newest first,
/// for the dev console's live tail and for scripts.
///
/// A reader polls with `after` set to the `latest_sequence` of its previous answer and gets only
/// what came since. The console's own reads (`GET /__dev/*`) are not kept in the ring.
struct RequestTailRoutes: RouteModule {
    let deps: Dependencies

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/__dev/requests", use: tail)
        return routes
    }

    struct Tail: Encodable {
        /// Newest first.
        var items: [AccessLogEntry]
        /// The sequence number of the newest entry kept (0 before the first), whatever the filters.
        var latestSequence: Int
        /// How many entries the ring keeps.
        var capacity: Int
    }

    /// What a reader asks for: entries after a sequence number, of one tenant, of one status or status class.
    struct Filter: Equatable {
        var after = 0
        var tenant: String?
        var status: StatusFilter?

        /// - Throws: `400 validation_failed` naming each malformed parameter.
        init(_ request: Request) throws {
            var errors: [APIError.FieldError] = []
            after = DevListQuery.after(request, errors: &errors)
            if let tenant = request.query("tenant") {
                if TenantID(tenant) != nil {
                    self.tenant = tenant
                } else {
                    errors.append(.init(field: "tenant", code: "invalid_format", message: "must be a tenant id"))
                }
            }
            status = DevListQuery.status(request, errors: &errors)
            if !errors.isEmpty { throw APIError.validation(errors) }
        }

        func matches(_ entry: AccessLogEntry) -> Bool {
            entry.sequence > after && (tenant == nil || entry.tenant == tenant)
                && (status?.matches(entry.status) ?? true)
        }
    }

    @Sendable func tail(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let query = try Filter(request)
        let snapshot = deps.accessLog.snapshot()
        let items = snapshot.kept.reversed().map(\.entry).filter { query.matches($0) }
        return try JSONResponse.make(
            Tail(items: items, latestSequence: snapshot.latestSequence, capacity: deps.accessLog.capacity))
    }
}
