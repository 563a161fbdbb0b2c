import EduGoServerStore
import Foundation

/// One served request, as the access log records it.
///
/// Holds no token, password or query string. The access log's lines and its ring
/// (`GET /__dev/requests`) carry the matched route template (`/v1/courses/{id}`), never the raw
/// path; the path, the caller, `If-Match` and the redacted body are kept only in the dev-mode
/// request journal of the request's tenant (``RequestJournal``), see ``withoutJournalDetails``.
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

    // The request journal's details (dev mode only).

    /// The request's path, without its query string.
    public var path: String? = nil
    /// The authenticated caller's id, when the request authenticated.
    public var userID: String? = nil
    /// The authenticated caller's email.
    public var email: String? = nil
    /// The authenticated caller's role.
    public var role: String? = nil
    /// `true` when the caller was the dev backend acting as the user (a token of
    /// `POST /__dev/tenants/{id}/users/{userId}/token`); absent otherwise.
    public var impersonated: Bool? = nil
    /// The request's `If-Match`.
    public var ifMatch: String? = nil
    /// The request's JSON body with every password and token replaced (only with `--journal-bodies`).
    public var body: String? = nil

    /// The entry without the journal's details, as the access log's ring keeps it.
    var withoutJournalDetails: AccessLogEntry {
        var entry = self
        entry.path = nil
        entry.userID = nil
        entry.email = nil
        entry.role = nil
        entry.impersonated = nil
        entry.ifMatch = nil
        entry.body = nil
        return entry
    }

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
