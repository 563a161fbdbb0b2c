/// A validated tenant identifier: 2–63 characters of `a-z`, `0-9` and `-`, starting with a
/// letter or digit. The format makes it safe to use as a database file name.
package struct TenantID: Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String

    /// Returns `nil` for anything that is not a well-formed tenant id.
    package init?(_ rawValue: String) {
        guard (2...63).contains(rawValue.count),
            let first = rawValue.unicodeScalars.first, Self.isAlphanumeric(first),
            rawValue.unicodeScalars.allSatisfy({ Self.isAlphanumeric($0) || $0 == "-" })
        else { return nil }
        self.rawValue = rawValue
    }

    package var description: String { rawValue }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
