import EduGoGuarded
import EduGoServerStore

/// What the middlewares inside the access log learn of a request and the access log, further out
/// and seeing only the answer, cannot: the dev-mode fault rule that fired, whether it closed the
/// connection instead of answering, and who the authenticated caller was.
///
/// One per request in dev mode, created by ``AccessLogMiddleware`` and carried in the request
/// context; ``FaultMiddleware`` and ``AuthenticationMiddleware`` write to it.
final class RequestNotes: Sendable {
    /// The authenticated caller, as the request journal records it.
    struct Caller: Sendable, Equatable {
        var tenant: String
        var userID: String
        var email: String
        var role: String
        /// The dev backend acting as the user (an impersonation token).
        var impersonated: Bool
    }

    private struct State {
        var fault: FiredFault?
        var dropped = false
        var caller: Caller?
    }

    private let state = Guarded(State())

    /// Records the fault rule that fired.
    func record(_ rule: FaultRule) {
        state.withLock { $0.fault = FiredFault(ruleID: rule.id, action: rule.action.rawValue) }
    }

    /// Records that the rule closed the connection: the answer the access log sees was never sent.
    func recordDropped() {
        state.withLock { $0.dropped = true }
    }

    /// Records the caller the request authenticated as.
    func recordCaller(_ identity: Identity) {
        let caller = Caller(
            tenant: identity.tenantID.rawValue, userID: identity.userID, email: identity.user.email,
            role: identity.role.rawValue, impersonated: identity.impersonated)
        state.withLock { $0.caller = caller }
    }

    /// The rule that fired, if any.
    var fault: FiredFault? { state.withLock { $0.fault } }

    /// How the answer was lost (the rule's action: `drop_request`, `drop_response` or `garbage`),
    /// or `nil` when it was sent.
    var dropped: String? {
        state.withLock { $0.dropped ? $0.fault?.action : nil }
    }

    /// The authenticated caller, if the request authenticated.
    var caller: Caller? { state.withLock { $0.caller } }
}
