/// A fault rule that fired for one request, with what was drawn for it from the rule's generator
/// (seeded when the rule has a `seed`, so the same requests get the same waits and bytes).
struct FaultFiring: Sendable, Equatable {
    /// The rule, counted as fired.
    var rule: FaultRule
    /// Milliseconds to wait before acting.
    var delayMs: Int
    /// The bytes a `garbage` rule sends; empty for every other action.
    var garbage: [UInt8]

    /// Draws the wait and, for `garbage`, the bytes.
    init(rule: FaultRule, using generator: inout some RandomNumberGenerator) {
        self.rule = rule
        delayMs = rule.drawDelayMs(using: &generator)
        let count = rule.action == .garbage ? rule.bytes ?? FaultRule.defaultGarbageBytes : 0
        garbage = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
