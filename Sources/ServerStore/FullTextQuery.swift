/// A search as the user typed it, turned into an SQLite FTS5 `MATCH` expression that can only
/// ever mean "these words".
///
/// The rule, as openapi.yaml states it: the text is split at blanks (and control characters) into words; every word must
/// match a word of the indexed text, and the last word also matches any word it begins
/// ("matem" finds "Matemáticas"), because users search as they type. Case and accents are
/// ignored (the tables' `unicode61 remove_diacritics 2` tokenizer folds both sides alike), and a
/// word is further split where the tokenizer splits (anything but letters and digits), so
/// `ada@example.com` is the phrase `ada example com`. Words with no letter or digit match
/// nothing and are left out; a search made only of them finds nothing.
///
/// Every word is written as an FTS5 string (`"…"`, with `"` doubled), so `*`, `-`, `:`, `^`,
/// `(`, `NEAR`, `AND`, `OR`, `NOT` and quotes in the input are text, never query syntax.
package enum FullTextQuery {
    /// The `MATCH` expression for `text`, or `nil` when it has no word to search for.
    package static func expression(_ text: String) -> String? {
        // Control characters separate words too: FTS5 reads its query as a C string, so a NUL inside
        // a quoted word would cut the query short and make it a syntax error.
        let words = text.split(whereSeparator: { character in
            character.isWhitespace || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }).filter { word in
            word.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        }
        guard !words.isEmpty else { return nil }
        return words.enumerated().map { index, word in
            let quoted = "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return index == words.count - 1 ? quoted + "*" : quoted
        }.joined(separator: " ")
    }
}
