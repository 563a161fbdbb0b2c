import EduGoServerStore
import Foundation
import Hummingbird
import ServiceLifecycle

/// `/v1/sync/changes`, the change feed a device pulls from its cursor, and `/v1/sync/events`, the
/// live stream that tells it when to pull.
struct SyncRoutes: RouteModule {
    let deps: Dependencies

    /// The page size when the client names none, and the largest it may name.
    static let defaultLimit = 500
    static let maxLimit = 1_000

    var authenticated: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/v1/sync/changes", use: changes)
        routes.get("/v1/sync/events", use: events)
        return routes
    }

    /// A server-sent event stream announcing the changes the caller may see (``EventStream``).
    @Sendable func events(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let hub = deps.changeHub
        let subscription = try hub.reserve(identity, expiresAt: identity.accessTokenExpiresAt, now: deps.now)
        let tenants = deps.tenants
        let stream = EventStream(
            hub: hub, subscription: subscription, caller: EventStream.Caller(identity),
            store: { try await tenants.store(for: $0) }, lastEventID: request.headers[.lastEventID],
            coalescing: deps.configuration.events.coalescing, cursors: deps.cursors, now: deps.configuration.now)
        let id = subscription.id
        let channel = context.channel
        let watcher = ClientGoneWatcher { hub.end(id, .clientGone) }
        try? await channel.pipeline.addHandler(watcher, position: .first)
        channel.closeFuture.whenComplete { _ in hub.end(id, .clientGone) }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.xAccelBuffering] = "no"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { channel.pipeline.removeHandler(watcher, promise: nil) }
            try await withGracefulShutdownHandler {
                try await stream.write(to: &writer)
            } onGracefulShutdown: {
                hub.end(id, .shutdown)
            }
            try await writer.finish(nil)
        })
    }

    /// What changed after `cursor` as the caller sees it; no cursor starts a base sync.
    @Sendable func changes(_ request: Request, context: EduGoRequestContext) async throws -> some ResponseGenerator {
        let identity = try context.requireIdentity()
        let limit = try Self.limit(request)
        var cursor: ChangeCursor?
        if let text = request.query("cursor") {
            guard let decoded = deps.cursors.open(text) else { throw APIError.invalidCursor }
            cursor = decoded
        }
        let retention = deps.configuration.changeRetention
        let horizon = deps.now.addingTimeInterval(-Double(retention.components.seconds))
        let page = try await identity.store.changes(after: cursor, visibleTo: identity, limit: limit, horizon: horizon)
        if page.cursor.base == nil {
            deps.changeHub.notePull(
                identity.tenantID, sessionID: identity.sessionID, at: page.cursor.seq, of: page.cursor.timeline, now: deps.now)
        }
        return APIResponse(SyncChangesPage(page, sealedBy: deps.cursors))
    }

    private static func limit(_ request: Request) throws -> Int {
        guard let raw = request.query("limit") else { return defaultLimit }
        guard let limit = Int(raw), (1...maxLimit).contains(limit) else {
            throw APIError.validation(field: "limit", code: "out_of_range", message: "must be an integer in 1...\(maxLimit)")
        }
        return limit
    }
}
