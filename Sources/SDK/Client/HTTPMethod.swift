/// The HTTP methods the EduGo API uses.
public enum HTTPMethod: String, Sendable, Hashable {
    /// Reads; safe to repeat.
    case get = "GET"
    /// Creates or acts; repeated only when the request carries an `Idempotency-Key`.
    case post = "POST"
    /// Replaces a resource (progress, for example); safe to repeat.
    case put = "PUT"
    /// Changes some fields; repeated only when the request carries an `Idempotency-Key`.
    case patch = "PATCH"
    /// Deletes; safe to repeat.
    case delete = "DELETE"

    /// Methods that may be repeated without changing the outcome (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        switch self {
        case .get, .put, .delete: true
        case .post, .patch: false
        }
    }
}
