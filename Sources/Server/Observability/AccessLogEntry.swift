import EduGoServerStore
import Foundation

/// One served request, as the access log records it.
///
/// Holds no token, password, query string or body: the route is the matched template
/// (`/v1/courses/{id}`), never the raw path.
public struct AccessLogEntry: Sendable, Equatable, Encodable {
    /// When the answer was ready (the server's clock).
    public var timestamp: Date
    /// The `X-Request-ID` of the exchange.
    public var requestID: String
    /// The tenant the request named (`X-Tenant-ID`) or its bearer token claims; `nil` when neither.
    public var tenant: String?
    /// The HTTP method.
    public var method: String
    /// The matched route template, or `unmatched`.
    public var route: String
    /// The answered status.
    public var status: Int
    /// Time from the request reaching the router to the answer, in milliseconds.
    public var durationMs: Double
    /// Response body bytes when known up front.
    public var bytes: Int?
    /// `drop_request`, `drop_response` or `garbage` when a dev-mode fault closed the connection instead.
    public var dropped: String?
    /// The dev-mode fault rule that fired for this request, if any.
    public var fault: FiredFault? = nil
    /// The request's `Idempotency-Key`, when it sent one (a client-chosen id, not a secret).
    public var idempotencyKey: String? = nil
    /// With a key: `true` when the answer was a stored one replayed, `false` when the handler ran.
    public var replayed: Bool? = nil
    /// The entry's place in the log: 1 for the server's first request, one more for each kept entry
    /// (set by ``AccessLogBuffer``; 0 until kept). Lets a reader ask for what came after it.
    public var sequence: Int = 0

    /// The log metadata of the entry (swift-log), for the text and JSON log formats alike.
    var metadata: [String: String] {
        var metadata = [
            "request_id": requestID, "method": method, "route": route, "status": String(status),
            "duration_ms": String(format: "%.2f", durationMs),
        ]
        metadata["tenant"] = tenant
        metadata["bytes"] = bytes.map(String.init)
        metadata["dropped"] = dropped
        metadata["fault"] = fault?.ruleID
        return metadata
    }
}

/// A fault rule that fired for a request, as the access log records it.
public struct FiredFault: Sendable, Equatable, Encodable {
    /// The rule's id (`f-1`).
    public var ruleID: String
    /// What the rule did: `delay`, `status`, `drop_request`, `drop_response`, `slow_body`, `truncate` or `garbage`.
    public var action: String

    enum CodingKeys: String, CodingKey {
        case ruleID = "ruleId"
        case action
    }
}
