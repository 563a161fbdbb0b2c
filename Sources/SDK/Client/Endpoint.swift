import Foundation

/// The API version prefix of an endpoint.
public enum APIVersion: String, Sendable {
    /// `/v1/…`, where every current operation lives, or `/v2/…`.
    case v1, v2
}

/// One server operation: method, path segments, query items and how it authenticates.
///
/// Paths are kept as segments and percent-encoded one by one when the URL is built, so a user
/// supplied id such as `../admin` or `a?b` can never change the path or the query.
public struct Endpoint: Sendable, Hashable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// Path segments after the version prefix, unencoded.
    public var segments: [String]
    /// Query items, percent-encoded one by one when the URL is built.
    public var query: [URLQueryItem]
    /// The version prefix of the path (`/v1`); `nil` for unversioned paths (`/health`).
    public var version: APIVersion?
    /// Whether the bearer token is attached (and a 401 triggers one refresh-and-retry).
    public var requiresAuthentication: Bool

    /// Creates an endpoint. For the API's own operations use the factories instead
    /// (``Endpoint/Courses``, ``Endpoint/Users``, ``Endpoint/Auth``).
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - segments: Path segments after the version, unencoded, such as `["courses", id]`.
    ///   - query: Query items.
    ///   - version: The version prefix; `nil` for unversioned paths such as `/health`.
    ///   - requiresAuthentication: Whether the bearer token is attached.
    public init(
        _ method: HTTPMethod, _ segments: [String], query: [URLQueryItem] = [], version: APIVersion? = .v1,
        requiresAuthentication: Bool = true
    ) {
        self.method = method
        self.segments = segments
        self.query = query
        self.version = version
        self.requiresAuthentication = requiresAuthentication
    }

    /// The path as sent, percent-encoded.
    public var encodedPath: String {
        let all = (version.map { [$0.rawValue] } ?? []) + segments
        return "/" + all.map(Self.encodeSegment).joined(separator: "/")
    }

    /// The full URL under `baseURL` (which may carry a path prefix of its own).
    ///
    /// - Throws: ``NetworkError/invalidURL(_:)`` for a base URL without scheme or host, or an
    ///   empty segment (an empty id would address the collection: `/v1/users/` instead of a user).
    public func url(relativeTo baseURL: URL) throws -> URL {
        guard !segments.contains(where: \.isEmpty) else { throw NetworkError.invalidURL(encodedPath) }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            components.scheme != nil, components.host != nil
        else { throw NetworkError.invalidURL(baseURL.absoluteString) }
        let prefix = components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = prefix + encodedPath
        if query.isEmpty {
            components.percentEncodedQuery = nil
        } else {
            components.percentEncodedQuery = query.map { item in
                Self.encodeQuery(item.name) + (item.value.map { "=" + Self.encodeQuery($0) } ?? "")
            }.joined(separator: "&")
        }
        guard let url = components.url else { throw NetworkError.invalidURL(encodedPath) }
        return url
    }

    /// Encodes everything but unreserved characters; `.` and `..` segments are encoded whole so
    /// they cannot be resolved as dot-segments.
    static func encodeSegment(_ segment: String) -> String {
        if segment == "." || segment == ".." {
            return String(repeating: "%2E", count: segment.count)
        }
        return percentEncoded(segment)
    }

    static func encodeQuery(_ value: String) -> String {
        percentEncoded(value)
    }

    /// `text` with every UTF-8 byte that is not an unreserved character of RFC 3986 written as
    /// `%XX`. Plain text (names, UUIDs) comes back as it is, without a copy: a Foundation call per
    /// segment was a third of an outbox enqueue's own cost.
    private static func percentEncoded(_ text: String) -> String {
        if text.utf8.allSatisfy(isUnreserved) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Whether `byte` is an unreserved character of RFC 3986: a letter, a digit, `-`, `.`, `_` or `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}

extension Endpoint {
    /// Query items for `page` and `limit`.
    /// `page` (kept for old servers' clients), `limit` and `after` (a page's ``Page/next``).
    static func paging(_ page: Int?, _ limit: Int?, after: String? = nil) -> [URLQueryItem] {
        [
            page.map { URLQueryItem(name: "page", value: String($0)) }, limit.map { URLQueryItem(name: "limit", value: String($0)) },
            after.map { URLQueryItem(name: "after", value: $0) },
        ].compactMap { $0 }
    }
}

extension Endpoint {
    /// Rebuilds an endpoint from a method and an encoded path such as `/v1/courses/abc/progress`
    /// (how the outbox stores requests).
    init?(method: String, encodedPath: String) {
        guard let method = HTTPMethod(rawValue: method) else { return nil }
        var segments = encodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var version: APIVersion?
        if let first = segments.first, let parsed = APIVersion(rawValue: first) {
            version = parsed
            segments.removeFirst()
        }
        let decoded = segments.compactMap { $0.removingPercentEncoding }
        guard decoded.count == segments.count else { return nil }
        self.init(method, decoded, version: version)
    }
}
