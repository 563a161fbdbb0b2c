import EduGoServerStore
import Foundation
import Hummingbird

/// `GET /__dev/server`: what the dev console's Server panel shows — version, uptime, storage,
/// dev and TLS state, and per-route traffic from the access log's ring.
struct ServerInfoRoutes: RouteModule {
    let deps: Dependencies

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/__dev/server", use: show)
        return routes
    }

    struct ServerInfo: Encodable {
        /// TLS state: `enabled` when the server speaks HTTPS, with the pin (`sha256/…`) of its
        /// certificate's public key; off with a `null` pin otherwise.
        struct TLS: Encodable {
            var enabled: Bool
            var pin: String?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(enabled, forKey: .enabled)
                try container.encode(pin, forKey: .pin)  // `null`, not absent: the member is always there
            }

            enum CodingKeys: String, CodingKey { case enabled, pin }
        }

        var version: String
        var uptimeSeconds: Int
        var storage: String
        var dataDirectory: String?
        var devMode: Bool
        var metricsEnabled: Bool
        var tls: TLS
        var traffic: RouteTraffic

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(uptimeSeconds, forKey: .uptimeSeconds)
            try container.encode(storage, forKey: .storage)
            try container.encode(dataDirectory, forKey: .dataDirectory)  // `null` for in-memory storage
            try container.encode(devMode, forKey: .devMode)
            try container.encode(metricsEnabled, forKey: .metricsEnabled)
            try container.encode(tls, forKey: .tls)
            try container.encode(traffic, forKey: .traffic)
        }

        enum CodingKeys: String, CodingKey {
            case version, uptimeSeconds, storage, dataDirectory, devMode, metricsEnabled, tls, traffic
        }
    }

    @Sendable func show(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let now = ContinuousClock.now
        let uptime = now - deps.startedAt
        let snapshot = deps.accessLog.snapshot()
        let traffic = RouteTraffic.compute(
            kept: snapshot.kept, ringIsFull: snapshot.latestSequence > deps.accessLog.capacity, now: now, uptime: uptime)
        let directory: String? =
            switch deps.configuration.storage {
            case .directory(let url): url.standardizedFileURL.path
            case .inMemory: nil
            }
        let info = ServerInfo(
            version: ServerVersion.current, uptimeSeconds: Int(uptime.components.seconds),
            storage: directory == nil ? "memory" : "directory", dataDirectory: directory,
            devMode: deps.configuration.devMode, metricsEnabled: deps.metrics != nil,
            tls: .init(enabled: deps.configuration.tls != nil, pin: deps.configuration.tls?.pin), traffic: traffic)
        return try JSONResponse.make(info)
    }
}
