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
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            var start = 1
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
                let segment = bytes[start..<end]
                // An empty segment only as `/` alone or a trailing slash (`/__dev/`).
                if segment.isEmpty, end < bytes.count { return false }
                if !isPlain(segment) { return false }
                start = end + 1
            }
            return true
        }
    }

    /// Whether a segment is neither `.` nor `..` and holds no `%2F` or `%5C` (either case).
    private static func isPlain(_ segment: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        if segment.allSatisfy({ $0 == UInt8(ascii: ".") }), (1...2).contains(segment.count) { return false }
        var index = segment.startIndex
        while let percent = segment[index...].firstIndex(of: UInt8(ascii: "%")) {
            let digits = segment[(percent + 1)...].prefix(2)
            if digits.count == 2 {
                let first = digits[digits.startIndex]
                let second = digits[digits.startIndex + 1] | 0x20  // lowercased when a letter
                if (first == UInt8(ascii: "2") && second == UInt8(ascii: "f"))
                    || (first == UInt8(ascii: "5") && second == UInt8(ascii: "c"))
                {
                    return false
                }
            }
            index = percent + 1
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
