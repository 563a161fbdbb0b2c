import Foundation
import HTTPTypes

/// An error the API answers with a stable machine `code`, rendered as RFC 9457 problem+json.
///
/// Every refusal the server makes is one of these; anything else that escapes a handler becomes
/// a generic `500 internal_error` without internal detail.
public struct APIError: Error, Sendable {
    /// One field-level validation failure.
    public struct FieldError: Sendable, Encodable, Equatable {
        /// JSON name of the offending field (or query parameter).
        public var field: String
        /// Stable code, e.g. `required`, `too_short`, `invalid_format`.
        public var code: String
        /// Human-readable explanation.
        public var message: String

        public init(field: String, code: String, message: String) {
            self.field = field
            self.code = code
            self.message = message
        }
    }

    public var status: HTTPResponse.Status
    public var code: String
    public var detail: String
    public var errors: [FieldError]
    /// Extra response headers such as `Retry-After`, `Allow` or `WWW-Authenticate`.
    public var headers: HTTPFields
    /// For version conflicts: the server's current version.
    public var currentVersion: Int?
    /// For version conflicts: the server's current representation, already encoded.
    public var current: JSONValue?
    /// For validation failures listing only some of their errors: how many there were.
    public var errorCount: Int?
    /// For an expired cursor: why (`timeline_changed`, `retention_exceeded`, `role_changed`).
    public var reason: String?

    public init(
        _ status: HTTPResponse.Status, code: String, detail: String,
        errors: [FieldError] = [], headers: HTTPFields = [:],
        currentVersion: Int? = nil, current: JSONValue? = nil
    ) {
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = errors
        self.headers = headers
        self.currentVersion = currentVersion
        self.current = current
    }
}

extension APIError {
    /// The most field errors a problem lists; `error_count` tells how many there were.
    static let maxFieldErrors = 20
    /// Field names come from the client (unknown members): longer ones are cut.
    static let maxFieldNameLength = 64

    /// `400 validation_failed` listing at most ``maxFieldErrors`` errors, with field names cut to
    /// ``maxFieldNameLength`` characters, so the answer's size never grows with the request's.
    static func validation(_ errors: [FieldError]) -> APIError {
        let listed = errors.prefix(maxFieldErrors).map { error in
            var error = error
            if error.field.count > maxFieldNameLength { error.field = String(error.field.prefix(maxFieldNameLength)) + "…" }
            return error
        }
        var detail = listed.prefix(3).map { "\($0.field): \($0.message)" }.joined(separator: "; ")
        if errors.count > 3 { detail += "; and \(errors.count - 3) more" }
        var problem = APIError(.badRequest, code: "validation_failed", detail: detail, errors: Array(listed))
        problem.errorCount = errors.count > listed.count ? errors.count : nil
        return problem
    }

    static func validation(field: String, code: String, message: String) -> APIError {
        validation([FieldError(field: field, code: code, message: message)])
    }

    static func notFound(_ what: String = "resource") -> APIError {
        APIError(.notFound, code: "not_found", detail: "The requested \(what) does not exist.")
    }

    static func forbidden(_ detail: String) -> APIError {
        APIError(.forbidden, code: "forbidden", detail: detail)
    }

    static func unauthorized(_ detail: String, invalidToken: Bool) -> APIError {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] =
            invalidToken ? #"Bearer realm="edugo", error="invalid_token""# : #"Bearer realm="edugo""#
        return APIError(.unauthorized, code: "unauthorized", detail: detail, headers: headers)
    }

    static func rateLimited(retryAfter seconds: Int) -> APIError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(max(1, seconds))
        return APIError(
            .tooManyRequests, code: "rate_limited",
            detail: "Too many attempts. Try again in \(max(1, seconds)) seconds.", headers: headers)
    }

    /// A request the HTTP parser could not read, such as a chunked body with an invalid chunk size.
    static let malformedRequest = APIError(
        .badRequest, code: "bad_request", detail: "The request could not be parsed as HTTP.")

    static let tenantNotFound = APIError(.notFound, code: "tenant_not_found", detail: "No such tenant.")

    /// Dev mode: no snapshot with that id in the tenant.
    static let snapshotNotFound = APIError(.notFound, code: "snapshot_not_found", detail: "No such snapshot in this tenant.")

    /// Dev mode: the tenant holds as many snapshots as the server keeps per tenant.
    static func snapshotLimit(_ limit: Int) -> APIError {
        APIError(
            .conflict, code: "snapshot_limit",
            detail: "The tenant holds \(limit) snapshots, the most the server keeps; delete one first.")
    }

    static let internalError = APIError(
        .internalServerError, code: "internal_error", detail: "The server could not complete the request.")
}
