import EduGoServerStore
import Foundation
import Synchronization

/// The fault rules of every tenant, and the one decision per request of which rule fires.
///
/// Rules are kept per tenant, so parallel test suites (each on its own tenant) never see each
/// other's faults. Deciding and counting happen in one actor call (no suspension between the
/// check of `times` and its decrement), so a rule with `times: 1` fires exactly once even under
/// concurrent requests.
actor FaultInjector {
    private struct Entry {
        var rule: FaultRule
        let glob: PathGlob
        var random: RuleRandom
    }

    /// Rules a tenant may hold at once (retired rules included), so a runaway test cannot grow memory.
    static let limitPerTenant = 100

    private var entries: [TenantID: [Entry]] = [:]
    private var nextNumber = 1
    /// Rules that can still fire, over every tenant. Changed only inside the actor; read by every
    /// request without entering it.
    private let armed = Atomic<Int>(0)

    /// Called with each rule that fires (for metrics).
    private let onFire: @Sendable (FaultRule) -> Void

    init(onFire: @escaping @Sendable (FaultRule) -> Void = { _ in }) {
        self.onFire = onFire
    }

    /// Whether any tenant has a rule that can still fire (lets requests skip tenant resolution).
    nonisolated var isArmed: Bool { armed.load(ordering: .acquiring) > 0 }

    /// Stores a parsed rule for `tenant` under a fresh id.
    ///
    /// - Throws: `409 fault_limit_reached` when the tenant already holds ``limitPerTenant`` rules.
    func add(_ object: [String: JSONValue], tenant: TenantID) throws -> FaultRule {
        let rule = try FaultRule.parse(object, id: "f-\(nextNumber)")
        guard let glob = rule.glob else { throw APIError.internalError }
        guard entries[tenant, default: []].count < Self.limitPerTenant else {
            throw APIError(
                .conflict, code: "fault_limit_reached",
                detail: "A tenant holds at most \(Self.limitPerTenant) fault rules; delete some first.")
        }
        nextNumber += 1
        entries[tenant, default: []].append(
            Entry(rule: rule, glob: glob, random: RuleRandom(seeded: rule.seed.map(SeededGenerator.init(seed:)))))
        armed.add(1, ordering: .releasing)
        return rule
    }

    /// The tenant's rules in creation order, with how often each fired.
    func rules(tenant: TenantID) -> [FaultRule] {
        entries[tenant, default: []].map(\.rule)
    }

    /// Removes one rule; `false` when the tenant has no rule with that id.
    func remove(id: String, tenant: TenantID) -> Bool {
        guard let index = entries[tenant]?.firstIndex(where: { $0.rule.id == id }) else { return false }
        if let removed = entries[tenant]?.remove(at: index), removed.rule.active { armed.subtract(1, ordering: .releasing) }
        return true
    }

    /// Removes every rule of the tenant.
    func removeAll(tenant: TenantID) {
        armed.subtract(entries[tenant, default: []].filter(\.rule.active).count, ordering: .releasing)
        entries[tenant] = nil
    }

    /// The rule that fires for this request, if any, counted as fired (and retired when its
    /// `times` are used up), with its wait and bytes drawn from the rule's generator.
    func fire(tenant: TenantID, method: String, path: String) -> FaultFiring? {
        guard var list = entries[tenant] else { return nil }
        for index in list.indices where list[index].rule.matches(method: method, path: path, glob: list[index].glob) {
            let probability = list[index].rule.probability
            if probability < 1 {
                guard Double.random(in: 0..<1, using: &list[index].random) < probability else { continue }
            }
            list[index].rule.fired += 1
            if let times = list[index].rule.times, list[index].rule.fired >= times {
                list[index].rule.active = false
                armed.subtract(1, ordering: .releasing)
            }
            let firing = FaultFiring(rule: list[index].rule, using: &list[index].random)
            entries[tenant] = list
            onFire(firing.rule)
            return firing
        }
        entries[tenant] = list
        return nil
    }
}

/// A rule's randomness: its seeded generator when it has a `seed` (a run repeats), else the system's.
private struct RuleRandom: RandomNumberGenerator {
    var seeded: SeededGenerator?
    var system = SystemRandomNumberGenerator()

    mutating func next() -> UInt64 {
        guard var generator = seeded else { return system.next() }
        defer { seeded = generator }
        return generator.next()
    }
}
