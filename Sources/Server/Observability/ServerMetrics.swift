import EduGoGuarded
import Foundation
import Metrics
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of this
/// application's own.
///
/// The factory is passed to every metric explicitly instead of `MetricsSystem.bootstrap`, which is
/// process-global: tests run many servers in one process, and each must count only its own
/// requests.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let transactions: Metrics.Timer
    /// The request counter and timer of each method, route and status seen, made once: making
    /// them validates and looks up every name in the registry (13k instructions a request).
    private let requestMetrics = Guarded<[RequestKey: (Metrics.Counter, Metrics.Timer)]>([:])

    private struct RequestKey: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        self.factory = PrometheusMetricsFactory(registry: registry)
        self.transactions = Timer(label: "edugo_sqlite_transaction_duration_seconds", factory: factory)
        // Present from the start, so a scrape shows them at zero before the first event.
        for action in FaultRule.Action.allCases {
            Counter(label: "edugo_faults_fired_total", dimensions: [("action", action.rawValue)], factory: factory).increment(by: 0)
        }
        Counter(label: "edugo_rate_limit_refusals_total", factory: factory).increment(by: 0)
        Counter(label: "edugo_idempotent_replays_total", factory: factory).increment(by: 0)
    }

    /// One answered request, by method, route template and status.
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestKey(method: method, route: route, status: status)
        let (counter, timer) = requestMetrics.withLock { made in
            if let metrics = made[key] { return metrics }
            let dimensions = [("method", method), ("route", route), ("status", String(status))]
            let metrics = (
                Counter(label: "edugo_http_requests_total", dimensions: dimensions, factory: factory),
                Timer(label: "edugo_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            )
            made[key] = metrics
            return metrics
        }
        counter.increment()
        timer.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// One SQLite transaction, from `BEGIN` to `COMMIT` or `ROLLBACK`.
    func recordTransaction(_ duration: Duration) {
        transactions.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// A fault rule fired.
    func recordFault(_ action: FaultRule.Action) {
        Counter(label: "edugo_faults_fired_total", dimensions: [("action", action.rawValue)], factory: factory).increment()
    }

    /// A request refused with `rate_limited`.
    func recordRateLimitRefusal() {
        Counter(label: "edugo_rate_limit_refusals_total", factory: factory).increment()
    }

    /// A write answered from its idempotency record.
    func recordIdempotentReplay() {
        Counter(label: "edugo_idempotent_replays_total", factory: factory).increment()
    }

    /// An event written to a live stream.
    func recordStreamEvent() {
        Counter(label: "edugo_stream_events_sent_total", factory: factory).increment()
    }

    /// The gauges read at scrape time.
    func recordState(openTenantPools: Int, activeSessions: Int, openStreams: Int) {
        Gauge(label: "edugo_open_tenant_pools", factory: factory).record(openTenantPools)
        Gauge(label: "edugo_active_sessions", factory: factory).record(activeSessions)
        Gauge(label: "edugo_event_streams_open", factory: factory).record(openStreams)
    }

    /// The Prometheus text exposition (format 0.0.4).
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
