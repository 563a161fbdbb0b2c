/// The token of an `Authorization: Bearer <token>` header (RFC 6750), without the blanks around it.
///
/// Blanks are trimmed as ASCII spaces and tabs (the only ones HTTP allows around a field value)
/// rather than with Foundation's `trimmingCharacters(in:)`, which walked the whole token as
/// UTF-16 on every authenticated request (a sixth of a course list's instructions).
enum BearerToken {
    /// The token, or `nil` when the header does not use the Bearer scheme.
    static func from(_ header: String) -> Substring? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 6, parts[0].lowercased() == "bearer" else { return nil }
        var token = parts[1]
        while let first = token.utf8.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            token = token.dropFirst()
        }
        while let last = token.utf8.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            token = token.dropLast()
        }
        return token
    }
}
