import Foundation

extension CharacterSet {
    /// Exactly the characters of ECMAScript's `\s`, which openapi.yaml's patterns use: trimming
    /// with this set makes "blank" mean the same to the server and to the contract.
    package static let schemaWhitespace: CharacterSet = {
        var set = CharacterSet(charactersIn: "\t\n\u{0B}\u{0C}\r \u{A0}\u{1680}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}")
        set.insert(charactersIn: "\u{2000}"..."\u{200A}")
        return set
    }()
}
