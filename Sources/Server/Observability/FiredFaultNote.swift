import Synchronization

/// Where the fault middleware notes the rule that fired for a request, so that the access-log
/// middleware (further out, which only sees the answer) can put it in the access log.
///
/// One per request, created by ``AccessLogMiddleware`` and carried in the request context.
final class FiredFaultNote: Sendable {
    private let fault = Mutex<FiredFault?>(nil)

    /// Records the rule that fired.
    func record(_ rule: FaultRule) {
        fault.withLock { $0 = FiredFault(ruleID: rule.id, action: rule.action.rawValue) }
    }

    /// The rule that fired, if any.
    var value: FiredFault? { fault.withLock { $0 } }
}
