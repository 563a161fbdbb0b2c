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
        /// Waits a time drawn uniformly between `min` and `max` (whole milliseconds), then handles
        /// the request normally.
        case randomDelay(min: Duration, max: Duration)
        /// Waits a time drawn from a log-normal distribution with this median and `sigma` (the
        /// standard deviation of its logarithm; 0.5 puts a sixth of the waits beyond 1.65 × the
        /// median), then handles the request normally: the long tail of a real network.
        case logNormalDelay(median: Duration, sigma: Double)
        /// Handles the request, then sends the body in `chunks` equal pieces spread over `duration`.
        case slowBody(chunks: Int, over: Duration)
        /// Handles the request, sends the head (announcing the whole length) and the first `bytes`
        /// of the body, then closes the connection: a download a client must resume.
        case truncate(afterBytes: Int)
        /// Sends `bytes` random bytes instead of an HTTP answer, then closes the connection; the
        /// handler does not run.
        case garbage(bytes: Int = 64)
    }

    /// A stored fault rule as the server reports it.
    public struct InjectedFault: Sendable, Equatable, Decodable {
        /// The rule's id.
        public var id: String
        /// The method it matches; any when `nil`.
        public var method: String?
        /// The path glob it matches.
        public var path: String
        /// `delay`, `status`, `drop_request`, `drop_response`, `slow_body`, `truncate` or `garbage`.
        public var action: String
        /// How often it may fire; unlimited when `nil`.
        public var times: Int?
        /// Chance that a matching request fires it.
        public var probability: Double
        /// The status of a `status` action.
        public var status: Int
        /// `Retry-After` seconds of a `status` action.
        public var retryAfter: Int?
        /// Milliseconds waited before acting (0 when the wait is random).
        public var delayMs: Int
        /// Bounds of a uniform random wait, in milliseconds.
        public var minMs: Int?
        /// Upper bound of a uniform random wait, in milliseconds.
        public var maxMs: Int?
        /// Median of a log-normal random wait, in milliseconds.
        public var medianMs: Int?
        /// Spread of a log-normal random wait.
        public var sigma: Double?
        /// Pieces of a slow body.
        public var chunks: Int?
        /// Time a slow body is spread over, in milliseconds.
        public var durationMs: Int?
        /// Body bytes sent before a truncation, or random bytes of a garbage answer.
        public var bytes: Int?
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
