import Foundation

/// A request on its way to the transport, after the endpoint was turned into a URL.
public struct APIRequest: Sendable {
    /// The endpoint it was built from (authentication and idempotency decisions read it).
    public var endpoint: Endpoint
    /// The absolute URL, its path and query already percent-encoded.
    public var url: URL
    /// The HTTP method, taken from the endpoint.
    public var method: HTTPMethod
    /// Header fields; names are compared case-insensitively by ``APIResponse``, set them as shown.
    public var headers: [String: String]
    /// The body (JSON for API calls), or `nil` for none.
    public var body: Data?
    /// How long this attempt may take. A read refresh shortens it to fit its budget.
    public var timeout: Duration
    /// The user whose data this request reads or writes (an offline store's user): the bearer
    /// token is attached only if it is that user's, checked in the same step that reads it.
    public var expectedUserID: String?

    /// Creates a request for `endpoint` at `url`, with the endpoint's method. Interceptors, custom
    /// transports and tests use it; apps call ``APIClient`` instead.
    public init(endpoint: Endpoint, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: Duration) {
        self.endpoint = endpoint
        self.url = url
        self.method = endpoint.method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Whether sending this request twice is safe: an idempotent method, or an `Idempotency-Key`.
    public var isSafeToRepeat: Bool {
        method.isIdempotent || headers["Idempotency-Key"] != nil
    }
}

/// A response as the transport delivered it.
public struct APIResponse: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields as received.
    public var headers: [String: String]
    /// The body bytes; empty when there were none.
    public var body: Data

    /// Creates a response, as a custom ``HTTPTransport`` or a test stub returns it.
    public init(statusCode: Int, headers: [String: String], body: Data) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// A header value, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// The entity tag, when the server sent one.
    public var etag: String? { header("ETag") }

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }
}
