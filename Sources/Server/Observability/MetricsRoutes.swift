import Foundation
import Hummingbird

/// `GET /metrics`: the Prometheus text exposition. Installed only when metrics are on; with a
/// configured token it requires `Authorization: Bearer <token>`.
struct MetricsRoutes: RouteModule {
    let deps: Dependencies
    let metrics: ServerMetrics
    let token: String?

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/metrics", use: scrape)
        return routes
    }

    @Sendable func scrape(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        if let token {
            let presented = request.headers[.authorization] ?? ""
            guard Self.constantTimeEquals(presented, "Bearer \(token)") else {
                throw APIError.unauthorized("Send the metrics token as a Bearer token.", invalidToken: !presented.isEmpty)
            }
        }
        let state = await deps.tenants.state()
        metrics.recordState(
            openTenantPools: state.openDatabases, activeSessions: state.activeSessions, openStreams: deps.changeHub.openCount())
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
    }

    private static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
