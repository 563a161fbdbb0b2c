import EduGoServerStore
import Foundation

/// Sliding-window counters keyed by ``RateLimitKey``s.
///
/// An attempt is *reserved* before the expensive work it guards (a bcrypt, a mail) and in one
/// actor call for every key it counts against, so concurrent attempts cannot all pass a check
/// before any of them is recorded. A successful attempt can give its reservation back.
actor RateLimiter {
    /// Attempts counted against one or more keys, to be released if the attempt succeeds.
    struct Reservation: Sendable {
        fileprivate var events: [RateLimitKey: Date]
    }

    private struct Entry {
        var events: [Date]
        var window: TimeInterval
    }

    private var entries: [RateLimitKey: Entry] = [:]
    private let capacity: Int
    private let now: @Sendable () -> Date

    /// - Parameter capacity: The most keys kept; past it, expired keys are swept and then the
    ///   least recently used ones are forgotten.
    init(capacity: Int = 100_000, now: @escaping @Sendable () -> Date) {
        self.capacity = max(1, capacity)
        self.now = now
    }

    /// Counts one attempt against every key, or against none: throws `429 rate_limited` (with
    /// the longest wait among the exhausted keys) when any key already reached its limit.
    @discardableResult
    func reserve(_ demands: [(RateLimitKey, RateLimits.Rule)]) throws -> Reservation {
        let current = now()
        var retryAfter: TimeInterval?
        for (key, rule) in demands {
            let recent = prune(key, rule: rule, now: current)
            if recent.count >= rule.limit, let oldest = recent.first {
                let wait = oldest.addingTimeInterval(rule.window.timeInterval).timeIntervalSince(current)
                retryAfter = max(retryAfter ?? 0, wait)
            }
        }
        if let retryAfter {
            throw APIError.rateLimited(retryAfter: Int(retryAfter.rounded(.up)))
        }
        var reservation = Reservation(events: [:])
        for (key, rule) in demands {
            var entry = entries[key] ?? Entry(events: [], window: rule.window.timeInterval)
            entry.events.append(current)
            entry.window = max(entry.window, rule.window.timeInterval)
            entries[key] = entry
            reservation.events[key] = current
        }
        if entries.count > capacity { shrink(now: current) }
        return reservation
    }

    /// Reserves one attempt for `key`: for limits that count every attempt.
    func consume(_ key: RateLimitKey, _ rule: RateLimits.Rule) throws {
        try reserve([(key, rule)])
    }

    /// Gives back a reservation's attempts against `keys` only (the attempt succeeded, and the
    /// other keys count every attempt), and forgets every key in `clearing` altogether.
    func release(_ reservation: Reservation, only keys: Set<RateLimitKey>, clearing: [RateLimitKey] = []) {
        release(Reservation(events: reservation.events.filter { keys.contains($0.key) }), clearing: clearing)
    }

    /// Gives back the attempts of a reservation (the attempt succeeded), and forgets every key in
    /// `clearing` altogether (a successful login clears the account's failures).
    func release(_ reservation: Reservation, clearing: [RateLimitKey] = []) {
        for (key, date) in reservation.events {
            guard var entry = entries[key] else { continue }
            if let index = entry.events.lastIndex(of: date) { entry.events.remove(at: index) }
            entries[key] = entry.events.isEmpty ? nil : entry
        }
        for key in clearing { entries[key] = nil }
    }

    /// How many keys the table holds.
    var keyCount: Int { entries.count }

    private func prune(_ key: RateLimitKey, rule: RateLimits.Rule, now: Date) -> [Date] {
        guard var entry = entries[key] else { return [] }
        let cutoff = now.addingTimeInterval(-rule.window.timeInterval)
        entry.events.removeAll { $0 <= cutoff }
        entries[key] = entry.events.isEmpty ? nil : entry
        return entry.events
    }

    /// Drops every key whose events all left their window; if that is not enough, forgets the
    /// least recently used address keys until the table is back to 90 % of its capacity.
    ///
    /// An account key that still holds events is never forgotten: otherwise flooding the table
    /// from many addresses would reset an account's failure budget, and guessing its password
    /// could go on. Account keys are bounded by the attempts the address budgets allow.
    private func shrink(now: Date) {
        entries = entries.filter { _, entry in
            (entry.events.last ?? .distantPast) > now.addingTimeInterval(-entry.window)
        }
        let target = capacity - capacity / 10
        guard entries.count > target else { return }
        let byAge = entries.filter { !$0.key.isAccount }
            .sorted { ($0.value.events.last ?? .distantPast) < ($1.value.events.last ?? .distantPast) }
        for (key, _) in byAge.prefix(entries.count - target) { entries[key] = nil }
    }
}
