import Foundation

/// The access log: which requests reached the server and how it answered.
extension EduGoTestServer {
    /// One request the server handled, as its access log kept it.
    public struct LoggedRequest: Sendable, Equatable, Decodable {
        /// The entry's place in the log (1 for the first request).
        public var sequence: Int
        /// The HTTP method.
        public var method: String
        /// The matched route template (`/v1/courses/{id}`), or `unmatched`.
        public var route: String
        /// The answered status.
        public var status: Int
        /// The request's `Idempotency-Key`, when it sent one.
        public var idempotencyKey: String? = nil
        /// With a key: `true` when the server replayed a stored answer, `false` when the handler ran.
        public var replayed: Bool? = nil
        /// The dev-mode fault rule that fired on it, if any.
        public var fault: FiredFault? = nil

        /// A fault rule that fired on a request.
        public struct FiredFault: Sendable, Equatable, Decodable {
            /// The rule's id (`f-1`).
            public var ruleId: String
            /// What it did: `delay`, `status`, `drop_request`, `drop_response`, `slow_body`, `truncate` or `garbage`.
            public var action: String
        }
    }

    /// The requests the server handled after the entry numbered `sequence`, newest first (its
    /// access log keeps the last 500; the log's own reads are not in it). A test asserts with it
    /// that a request never reached the server.
    public func loggedRequests(after sequence: Int = 0) async throws -> [LoggedRequest] {
        let log: RequestLog = try await devRequest.send("GET", "/__dev/requests?after=\(sequence)", expecting: 200)
        return log.items
    }
}
