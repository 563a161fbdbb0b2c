import Foundation

/// Case- and accent-insensitive search keys: `Matemáticas` and `matematicas` fold alike.
enum SearchText {
    static func fold(_ parts: [String]) -> String {
        parts.map(fold).joined(separator: " ")
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// A `LIKE` pattern that matches the folded query anywhere, with `%`, `_` and `\` escaped.
    static func likePattern(_ query: String) -> String {
        let escaped = fold(query)
            .replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return "%\(escaped)%"
    }
}
