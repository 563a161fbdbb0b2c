import Foundation

/// Sliding-window counters keyed by strings such as `login|acct|demo|ana@example.com`.
actor RateLimiter {
    private var events: [String: [Date]] = [:]
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// Throws `429 rate_limited` when `key` already reached `rule.limit` events in the window.
    func check(_ key: String, _ rule: RateLimits.Rule) throws {
        let current = now()
        let recent = prune(key, rule: rule, now: current)
        if recent.count >= rule.limit, let oldest = recent.first {
            let retryAfter = oldest.addingTimeInterval(rule.window.timeInterval).timeIntervalSince(current)
            throw APIError.rateLimited(retryAfter: Int(retryAfter.rounded(.up)))
        }
    }

    /// Records one event for `key`.
    func record(_ key: String, _ rule: RateLimits.Rule) {
        let current = now()
        var recent = prune(key, rule: rule, now: current)
        recent.append(current)
        events[key] = recent
        if events.count > 50_000 { sweep(olderThan: current.addingTimeInterval(-3600)) }
    }

    /// Checks, then records: for limits that count every attempt.
    func consume(_ key: String, _ rule: RateLimits.Rule) throws {
        try check(key, rule)
        record(key, rule)
    }

    /// Forgets `key` (a successful login clears the account's failures).
    func reset(_ key: String) {
        events[key] = nil
    }

    private func prune(_ key: String, rule: RateLimits.Rule, now: Date) -> [Date] {
        let cutoff = now.addingTimeInterval(-rule.window.timeInterval)
        let recent = (events[key] ?? []).filter { $0 > cutoff }
        events[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private func sweep(olderThan cutoff: Date) {
        events = events.filter { ($0.value.last ?? .distantPast) > cutoff }
    }
}
