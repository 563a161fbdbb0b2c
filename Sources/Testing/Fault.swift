import Foundation

extension EduGoTestServer {
    /// What a fault rule does to a matching request.
    public enum Fault: Sendable, Equatable {
        /// Waits, then handles the request normally (a slow server).
        case delay(Duration)
        /// Answers `status` as problem+json `injected_fault` without running the handler, with
        /// `Retry-After: retryAfter` when given (an overloaded server).
        case status(Int, retryAfter: Int? = nil)
        /// Closes the connection without running the handler (a request lost on the way).
        case dropRequest
        /// Runs the handler, so a write commits, then closes the connection without answering
        /// (a lost response).
        case dropResponse
    }

    /// A stored fault rule as the server reports it.
    public struct InjectedFault: Sendable, Equatable, Decodable {
        /// The rule's id.
        public var id: String
        /// The method it matches; any when `nil`.
        public var method: String?
        /// The path glob it matches.
        public var path: String
        /// `delay`, `status`, `drop_request` or `drop_response`.
        public var action: String
        /// How often it may fire; unlimited when `nil`.
        public var times: Int?
        /// Chance that a matching request fires it.
        public var probability: Double
        /// The status of a `status` action.
        public var status: Int
        /// `Retry-After` seconds of a `status` action.
        public var retryAfter: Int?
        /// Milliseconds waited before acting.
        public var delayMs: Int
        /// How often it fired.
        public var fired: Int
        /// `false` once it fired `times` times.
        public var active: Bool
    }
}

struct FaultList: Decodable {
    var items: [EduGoTestServer.InjectedFault]
}

struct RequestLog: Decodable {
    var items: [EduGoTestServer.LoggedRequest]
}

struct ClockState: Decodable {
    var offsetSeconds: Int
}

struct CreatedTenant: Decodable {
    struct Account: Decodable {
        var email: String
        var password: String
        var role: String
    }

    var tenantId: String
    var accounts: [Account]
}
