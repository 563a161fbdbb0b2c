import Foundation
import HTTPTypes

/// The RFC 9457 body of every error response.
struct ProblemDetails: Encodable {
    var type: String
    var title: String
    var status: Int
    var detail: String
    var instance: String
    var code: String
    var requestId: String
    var errors: [APIError.FieldError]?
    var errorCount: Int?
    var currentVersion: Int?
    var current: JSONValue?
    var reason: String?

    init(error: APIError, instance: String, requestID: String) {
        self.type = "urn:edugo:problem:\(error.code)"
        // A status built from a bare code has no phrase: the title is never empty.
        self.title = error.status.reasonPhrase.isEmpty
            ? HTTPResponse.Status.standard(code: error.status.code).reasonPhrase : error.status.reasonPhrase
        self.status = error.status.code
        self.detail = error.detail
        // The request path, as sent: bounded so that an error never echoes much of it.
        self.instance = instance.count > 1024 ? String(instance.prefix(1024)) + "…" : instance
        self.code = error.code
        self.requestId = requestID
        self.errors = error.errors.isEmpty ? nil : error.errors
        self.errorCount = error.errorCount
        self.currentVersion = error.currentVersion
        self.current = error.current
        self.reason = error.reason
    }
}
