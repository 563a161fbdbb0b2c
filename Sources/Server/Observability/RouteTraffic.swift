import Foundation

/// Requests per second and latency percentiles per route, computed from the access log's ring.
///
/// The basis is what the server keeps anyway: the entries of ``AccessLogBuffer`` (the last 500
/// requests, the dev console's own reads excluded) that were answered within the last
/// ``window``. A busy server therefore reports over fewer than `window` seconds of traffic
/// (``coveredSeconds`` says how many); a young one over its uptime.
struct RouteTraffic: Encodable, Sendable, Equatable {
    /// One route's traffic within the window.
    struct Route: Encodable, Sendable, Equatable {
        var method: String
        var route: String
        var count: Int
        var requestsPerSecond: Double
        var p50Ms: Double
        var p99Ms: Double
    }

    /// The window the figures cover at most, in seconds.
    var windowSeconds: Int
    /// The seconds actually covered: the window, cut to the uptime, or to the oldest kept entry
    /// when the ring overflowed within the window.
    var coveredSeconds: Double
    /// Entries the figures are computed from.
    var sampledRequests: Int
    /// Busiest route first.
    var routes: [Route]

    static let window: Duration = .seconds(60)

    /// Computes the figures at `now` from the ring's entries.
    ///
    /// - Parameters:
    ///   - kept: The ring's entries with their monotonic instants, oldest first.
    ///   - ringIsFull: Whether the ring has overwritten entries (its oldest entry then bounds the window).
    ///   - now: The monotonic instant to measure back from.
    ///   - uptime: How long the server has been running.
    static func compute(
        kept: [AccessLogBuffer.Kept], ringIsFull: Bool, now: ContinuousClock.Instant, uptime: Duration
    ) -> RouteTraffic {
        let start = now - window
        let recent = kept.filter { $0.instant > start }
        var covered = min(window, uptime)
        if ringIsFull, let oldest = kept.first, oldest.instant > start {
            covered = min(covered, now - oldest.instant)
        }
        let seconds = max(covered.timeInterval, 1)
        let groups = Dictionary(grouping: recent.map(\.entry)) { RouteKey(method: $0.method, route: $0.route) }
        let routes = groups.map { key, entries in
            let durations = entries.map(\.durationMs).sorted()
            return Route(
                method: key.method, route: key.route, count: entries.count,
                requestsPerSecond: rounded(Double(entries.count) / seconds),
                p50Ms: rounded(percentile(durations, 0.50)), p99Ms: rounded(percentile(durations, 0.99)))
        }
        .sorted { ($0.count, $1.route, $1.method) > ($1.count, $0.route, $0.method) }
        return RouteTraffic(
            windowSeconds: Int(window.components.seconds), coveredSeconds: rounded(covered.timeInterval),
            sampledRequests: recent.count, routes: routes)
    }

    /// Nearest-rank percentile of sorted values (`0` for none).
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    private struct RouteKey: Hashable {
        var method: String
        var route: String
    }
}
