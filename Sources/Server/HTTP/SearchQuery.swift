import Foundation
import Hummingbird

/// The `q` query parameter of list and search operations, read exactly as openapi.yaml states it:
/// at most 200 characters counted as Unicode code points (JSON Schema's `maxLength`), blanks at
/// either end ignored. A search needs at least one character that is not a blank (the spec's
/// `pattern`); a list treats a blank `q` as no filter.
enum SearchQuery {
    static let maximumLength = 200

    /// The blanks: the characters Python's and ECMAScript's `\s` agree on, listed one by one in the
    /// spec's `pattern` as well, so that a fuzzer generating from the spec and this server draw
    /// the line in the same place.
    static let blanks = CharacterSet(
        charactersIn: "\t\n\u{0B}\u{0C}\r\u{1C}\u{1D}\u{1E}\u{1F} \u{85}\u{A0}\u{1680}"
            + "\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}"
            + "\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}")

    /// `q` of a search operation: required, 1 to 200 characters, not only blanks.
    ///
    /// - Returns: The text without blanks at either end.
    /// - Throws: `400 validation_failed` (`q`, `required`) when absent, too long or only blanks.
    static func required(_ request: Request) throws -> String {
        guard let raw = request.query("q"), raw.unicodeScalars.count <= maximumLength, let text = trimmed(raw) else {
            throw APIError.validation(field: "q", code: "required", message: "must be 1 to \(maximumLength) characters, not only blanks")
        }
        return text
    }

    /// `q` of a list operation: optional, at most 200 characters.
    ///
    /// - Returns: The text without blanks at either end, or `nil` when absent or only blanks.
    /// - Throws: `400 validation_failed` (`q`, `too_long`) beyond 200 characters.
    static func optional(_ request: Request) throws -> String? {
        guard let raw = request.query("q") else { return nil }
        guard raw.unicodeScalars.count <= maximumLength else {
            throw APIError.validation(field: "q", code: "too_long", message: "must be at most \(maximumLength) characters")
        }
        return trimmed(raw)
    }

    private static func trimmed(_ raw: String) -> String? {
        let text = raw.trimmingCharacters(in: blanks)
        return text.isEmpty ? nil : text
    }
}
