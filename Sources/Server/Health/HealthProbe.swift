import EduGoGuarded

/// Whether the registry database answers, asked at most once per `interval` however often
/// `/health` is polled (a load balancer or a monitoring loop must not cost a database read each).
final class HealthProbe: Sendable {
    private let check: @Sendable () async -> Bool
    private let interval: Duration
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let last = Guarded<(at: ContinuousClock.Instant, reachable: Bool)?>(nil)

    /// - Parameter check: Asks the registry database (``TenantRegistry/isReachable()``).
    init(
        interval: Duration = .seconds(1),
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        check: @escaping @Sendable () async -> Bool
    ) {
        self.check = check
        self.interval = interval
        self.clock = clock
    }

    func isReachable() async -> Bool {
        let now = clock()
        if let last = last.withLock({ $0 }), now - last.at < interval { return last.reachable }
        let reachable = await check()
        last.withLock { $0 = (clock(), reachable) }
        return reachable
    }
}
