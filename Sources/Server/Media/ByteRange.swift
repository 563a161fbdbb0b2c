import Foundation

/// The one byte range a `Range` header asks for (RFC 9110 §14), decided without I/O.
///
/// Only single ranges of the `bytes` unit are served: `a-b`, `a-` and `-n`. A header that is not
/// one of those (several ranges, another unit, a malformed value) is ignored and the whole file
/// is sent, as RFC 9110 allows.
enum ByteRange: Equatable, Sendable {
    /// Send the whole file (no `Range`, or one the server ignores).
    case whole
    /// Send these bytes (inclusive bounds, already clamped to the file) with 206.
    case partial(ClosedRange<Int>)
    /// No byte of the file satisfies the range: 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// The decision for `header` on a file of `size` bytes.
    static func decide(_ header: String?, size: Int) -> ByteRange {
        guard let header else { return .whole }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit) else { return .whole }
        if first.isEmpty {
            // A suffix: the last `n` bytes.
            guard let count = Int(last) else { return .whole }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .partial(max(0, size - count)...(size - 1))
        }
        guard let start = Int(first) else { return .unsatisfiable }  // more digits than an Int: past any file
        let end: Int
        if last.isEmpty {
            end = size - 1
        } else if let requested = Int(last) {
            guard requested >= start else { return .whole }  // an invalid range-spec is ignored
            end = min(requested, size - 1)
        } else {
            end = size - 1  // more digits than an Int: past the file's end
        }
        guard start < size else { return .unsatisfiable }
        return .partial(start...end)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
