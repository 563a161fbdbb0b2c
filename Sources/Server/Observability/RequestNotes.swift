import EduGoGuarded

/// Where the fault middleware notes the rule that fired for a request, and whether it closed the
/// connection instead of answering, so that the access-log middleware (further out, which only
/// sees the answer) can put both in the access log.
///
/// One per request, created by ``AccessLogMiddleware`` and carried in the request context.
final class FiredFaultNote: Sendable {
    private let state = Guarded<(fault: FiredFault?, dropped: Bool)>((nil, false))

    /// Records the rule that fired.
    func record(_ rule: FaultRule) {
        state.withLock { $0.fault = FiredFault(ruleID: rule.id, action: rule.action.rawValue) }
    }

    /// Records that the rule closed the connection: the answer the access log sees was never sent.
    func recordDropped() {
        state.withLock { $0.dropped = true }
    }

    /// The rule that fired, if any.
    var value: FiredFault? { state.withLock { $0.fault } }

    /// How the answer was lost (the rule's action: `drop_request`, `drop_response` or `garbage`),
    /// or `nil` when it was sent.
    var dropped: String? {
        state.withLock { $0.dropped ? $0.fault?.action : nil }
    }
}
