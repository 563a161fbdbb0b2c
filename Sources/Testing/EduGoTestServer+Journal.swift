import EduGoServer
import Foundation
import Hummingbird

extension EduGoTestServer {
    /// A request the server journaled for its tenant: what the client sent, how the server
    /// answered, and whether the answer reached the client.
    public struct JournaledRequest: Sendable, Equatable, Decodable, CustomStringConvertible {
        /// Its place in the tenant's journal (1 for the first since the journal started or was cleared).
        public var sequence: Int
        /// When it was answered, by the server's clock.
        public var timestamp: Date
        /// Its `X-Request-ID`.
        public var requestId: String
        /// The HTTP method.
        public var method: String
        /// The path, without its query string.
        public var path: String
        /// The matched route template (`/v1/courses/{id}`), or `unmatched`.
        public var route: String
        /// The answered status (never sent when ``dropped`` is set).
        public var status: Int
        /// The authenticated caller's id, email and role, when it authenticated.
        public var userId: String? = nil
        public var email: String? = nil
        public var role: String? = nil
        /// `true` when the dev backend acted as the user (a token of the console's "Act as a user").
        public var impersonated: Bool? = nil
        /// Its `Idempotency-Key` and `If-Match`, when sent.
        public var idempotencyKey: String? = nil
        public var ifMatch: String? = nil
        /// With a key: `true` when the server replayed a stored answer, `false` when the handler ran.
        public var replayed: Bool? = nil
        /// How a fault rule lost the answer (`drop_request`, `drop_response`, `garbage`), if one did.
        public var dropped: String? = nil
        /// The fault rule that fired on it, if any.
        public var fault: LoggedRequest.FiredFault? = nil
        /// Its JSON body, secrets redacted (only when the server keeps bodies).
        public var body: String? = nil

        /// Whether the answer reached the client (no fault closed the connection instead).
        public var delivered: Bool { dropped == nil }

        /// Whether the server applied it: its handler ran to a 2xx answer (a replayed stored
        /// answer, or a request a fault stopped before the handler, was not applied).
        public var applied: Bool { (200..<300).contains(status) && replayed != true }

        public var description: String {
            var parts = ["#\(sequence) \(method) \(path) → \(status)"]
            if let email { parts.append(impersonated == true ? "acting as \(email)" : "as \(email)") }
            if let idempotencyKey { parts.append("Idempotency-Key \(idempotencyKey)") }
            if let ifMatch { parts.append("If-Match \(ifMatch)") }
            if replayed == true { parts.append("replayed") }
            if let dropped { parts.append("answer lost (\(dropped))") }
            return parts.joined(separator: ", ")
        }
    }

    /// What a test expects of journaled requests; every field left `nil` matches anything.
    public struct RequestPattern: Sendable, CustomStringConvertible {
        public var method: HTTPRequest.Method?
        /// A path glob as fault rules use (`/v1/courses/*/progress`, `/v1/**`).
        public var path: String?
        public var status: Int?
        /// A user id, or an email (compared case-insensitively).
        public var user: String?
        public var idempotencyKey: String?
        public var ifMatch: String?
        /// Whether the answer reached the client.
        public var delivered: Bool?
        /// Whether the server applied it (its handler ran to a 2xx answer; a replay is not applied).
        public var applied: Bool?

        public init(
            _ method: HTTPRequest.Method? = nil, _ path: String? = nil, status: Int? = nil, user: String? = nil,
            idempotencyKey: String? = nil, ifMatch: String? = nil, delivered: Bool? = nil, applied: Bool? = nil
        ) {
            self.method = method
            self.path = path
            self.status = status
            self.user = user
            self.idempotencyKey = idempotencyKey
            self.ifMatch = ifMatch
            self.delivered = delivered
            self.applied = applied
        }

        /// How `request` differs from the pattern, one phrase per field (empty when it matches).
        public func differences(from request: JournaledRequest) -> [String] {
            var differences: [String] = []
            if let method, method.rawValue != request.method { differences.append("method \(request.method), not \(method.rawValue)") }
            if let path, !(PathGlob(path)?.matches(request.path) ?? false) {
                differences.append("path \(request.path) does not match \(path)")
            }
            if let status, status != request.status { differences.append("status \(request.status), not \(status)") }
            if let user, request.userId != user, request.email?.lowercased() != user.lowercased() {
                differences.append("user \(request.email ?? request.userId ?? "none"), not \(user)")
            }
            if let idempotencyKey, idempotencyKey != request.idempotencyKey {
                differences.append("Idempotency-Key \(request.idempotencyKey ?? "none"), not \(idempotencyKey)")
            }
            if let ifMatch, ifMatch != request.ifMatch { differences.append("If-Match \(request.ifMatch ?? "none"), not \(ifMatch)") }
            if let delivered, delivered != request.delivered {
                differences.append(request.delivered ? "its answer was delivered" : "its answer was lost (\(request.dropped ?? ""))")
            }
            if let applied, applied != request.applied {
                differences.append(request.applied ? "it was applied" : request.replayed == true ? "its answer was a replay" : "it was not applied")
            }
            return differences
        }

        public var description: String {
            var parts = [method?.rawValue ?? "any method", path ?? "any path"]
            if let status { parts.append("status \(status)") }
            if let user { parts.append("as \(user)") }
            if let idempotencyKey { parts.append("Idempotency-Key \(idempotencyKey)") }
            if let ifMatch { parts.append("If-Match \(ifMatch)") }
            if let delivered { parts.append(delivered ? "delivered" : "answer lost") }
            if let applied { parts.append(applied ? "applied" : "not applied") }
            return parts.joined(separator: ", ")
        }
    }

    /// How many requests a verification expects.
    public enum RequestCount: Sendable, Equatable, CustomStringConvertible {
        case exactly(Int)
        case atLeast(Int)
        case atMost(Int)

        /// None at all.
        public static let never = RequestCount.exactly(0)

        func admits(_ count: Int) -> Bool {
            switch self {
            case .exactly(let expected): count == expected
            case .atLeast(let expected): count >= expected
            case .atMost(let expected): count <= expected
            }
        }

        public var description: String {
            switch self {
            case .exactly(0): "never"
            case .exactly(let count): "exactly \(count)"
            case .atLeast(let count): "at least \(count)"
            case .atMost(let count): "at most \(count)"
            }
        }
    }

    /// A verification that failed: the pattern, the count expected and found, the requests that
    /// matched, and the near misses (the closest requests that did not, each with how it differs).
    public struct VerificationFailure: Error, CustomStringConvertible {
        public var pattern: RequestPattern
        public var expected: RequestCount
        public var matched: [JournaledRequest]
        public var nearMisses: [(request: JournaledRequest, differences: [String])]

        public var description: String {
            var lines = ["expected \(expected) request(s) matching \(pattern), found \(matched.count)"]
            lines += matched.map { "  matched: \($0)" }
            lines += nearMisses.map { "  near miss: \($0.request) — \($0.differences.joined(separator: "; "))" }
            if matched.isEmpty && nearMisses.isEmpty { lines.append("  the journal holds no request") }
            return lines.joined(separator: "\n")
        }
    }

    /// The tenant's journaled requests matching `pattern`, oldest first (the journal keeps each
    /// tenant's last 1,000).
    ///
    /// - Parameter tenantID: Another tenant of this server; this server's fresh tenant when `nil`.
    public func requests(matching pattern: RequestPattern = RequestPattern(), tenantID: String? = nil) async throws -> [JournaledRequest] {
        try await journal(tenantID: tenantID).filter { pattern.differences(from: $0).isEmpty }
    }

    /// Checks that the tenant's journal holds `count` requests matching `pattern`, e.g. that a
    /// write was applied exactly once however often its answer was lost:
    ///
    /// ```swift
    /// try await server.verify(.init(.put, "/v1/courses/*/progress", applied: true), count: .exactly(1))
    /// ```
    ///
    /// - Throws: ``VerificationFailure`` with the matches and the three nearest misses.
    public func verify(_ pattern: RequestPattern, count: RequestCount = .exactly(1), tenantID: String? = nil) async throws {
        let all = try await journal(tenantID: tenantID)
        let compared = all.map { (request: $0, differences: pattern.differences(from: $0)) }
        let matched = compared.filter(\.differences.isEmpty).map(\.request)
        guard !count.admits(matched.count) else { return }
        let misses = compared.filter { !$0.differences.isEmpty }
            .sorted { ($0.differences.count, -$0.request.sequence) < ($1.differences.count, -$1.request.sequence) }
        throw VerificationFailure(pattern: pattern, expected: count, matched: matched, nearMisses: Array(misses.prefix(3)))
    }

    /// Empties the tenant's journal (between the phases of a test).
    public func clearRequests(tenantID: String? = nil) async throws {
        try await devRequest.sendWithoutAnswer(
            "DELETE", "/__dev/tenants/\(tenantID ?? self.tenantID)/requests", tenant: nil, expecting: 204)
    }

    private func journal(tenantID: String?) async throws -> [JournaledRequest] {
        let journal: Journal = try await devRequest.send(
            "GET", "/__dev/tenants/\(tenantID ?? self.tenantID)/requests", expecting: 200)
        return journal.items.reversed()
    }

    private struct Journal: Decodable {
        var items: [JournaledRequest]
    }
}
