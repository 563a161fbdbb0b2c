/// A request-path pattern for fault rules: `/v1/courses/*/progress`, `/v1/**`.
///
/// Segments are compared literally, except `*`, which matches exactly one segment, and `**`,
/// which may only end the pattern and matches whatever follows (zero or more segments).
package struct PathGlob: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(Substring)
        case one
        case rest
    }

    package let description: String
    let segments: [Segment]

    /// Returns `nil` unless `pattern` starts with `/`, has no empty segment, no query or fragment,
    /// uses `*` and `**` only as whole segments, and `**` only last.
    package init?(_ pattern: String) {
        guard pattern.hasPrefix("/"), (1...512).contains(pattern.count),
            !pattern.contains(where: { $0 == "?" || $0 == "#" || $0.isWhitespace })
        else { return nil }
        let parts = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [Segment] = []
        for (index, part) in parts.enumerated() {
            switch part {
            case "*": segments.append(.one)
            case "**":
                guard index == parts.count - 1 else { return nil }
                segments.append(.rest)
            default:
                guard !part.isEmpty, !part.contains("*") else {
                    // `/` alone is the root; any other empty segment is a typo.
                    if part.isEmpty && parts.count == 1 { continue }
                    return nil
                }
                segments.append(.literal(part))
            }
        }
        self.description = pattern
        self.segments = segments
    }

    /// Whether a request path (without its query) matches.
    package func matches(_ path: String) -> Bool {
        let actual = path.split(separator: "/", omittingEmptySubsequences: true)
        var index = 0
        for segment in segments {
            switch segment {
            case .rest:
                return true
            case .one:
                guard index < actual.count else { return false }
            case .literal(let literal):
                guard index < actual.count, actual[index] == literal else { return false }
            }
            index += 1
        }
        return index == actual.count
    }
}
