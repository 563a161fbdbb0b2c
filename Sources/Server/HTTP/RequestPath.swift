/// The canonical form of a request path, decided once before routing.
///
/// Hummingbird's router skips empty segments, so `//__dev/tenants` reaches the handler of
/// `/__dev/tenants`, while a check on the raw path (`hasPrefix("/__dev/")`) sees something else.
/// Rather than teach every such check (the dev perimeter, the Origin check, the fault exemption,
/// the access log) every spelling, a path that is not canonical is refused before any of them
/// runs: ``CanonicalPathMiddleware`` answers it `400 non_canonical_path`.
enum RequestPath {
    /// Whether `path` is canonical: it starts with `/`, has no empty segment (a trailing `/`
    /// excepted), no `.` or `..` segment, and no percent-encoded `/` or `\`. The router does not
    /// decode segments, so `%2E%2E` (how the SDK sends an id `..`) is an ordinary segment.
    static func isCanonical(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        let segments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment.isEmpty {
                // `/` alone, or the trailing slash of `/__dev/`.
                guard index == segments.count - 1 else { return false }
                continue
            }
            let text = String(decoding: segment, as: UTF8.self).lowercased()
            if text.contains("%2f") || text.contains("%5c") { return false }
            if text == "." || text == ".." { return false }
        }
        return true
    }
}

extension APIError {
    /// A request path with an empty, `.` or `..` segment, or a percent-encoded separator.
    static let nonCanonicalPath = APIError(
        .badRequest, code: "non_canonical_path",
        detail: "The request path must not contain empty, '.' or '..' segments or encoded separators.")
}
