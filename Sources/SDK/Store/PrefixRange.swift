import GRDB

/// The rows whose text `column` starts with a prefix, as a range of the column's index: from the
/// prefix up to (not including) its successor. SQLite compares text by its UTF-8 bytes, which sort
/// as the scalars do, so the range holds exactly the texts that start with the prefix, case and
/// all (where `LIKE` reads every row and ignores ASCII case).
struct PrefixRange {
    /// The condition, for a `WHERE` clause.
    let sql: String
    /// Its arguments: the prefix, and its successor when there is one.
    let arguments: StatementArguments

    /// - Parameter column: a column name the SDK chose (never text from outside).
    init(column: String, prefix: String) {
        if let end = Self.successor(ofPrefix: prefix) {
            sql = "\(column) >= ? AND \(column) < ?"
            arguments = [prefix, end]
        } else {
            sql = "\(column) >= ?"
            arguments = [prefix]
        }
    }

    /// The smallest text greater than every text that starts with `prefix`, or `nil` when there is
    /// none (an empty prefix, or one of U+10FFFF only).
    static func successor(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            // The next scalar value, stepping over the surrogates (not scalars).
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars)
                return String(text)
            }
        }
        return nil
    }
}
