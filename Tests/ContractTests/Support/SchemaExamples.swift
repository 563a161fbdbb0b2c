import Foundation

/// The `examples:` of one schema in openapi.yaml's `components.schemas`, read as JSON values by a
/// line-based reader of the subset the spec uses there: a list of block maps whose values are
/// scalars or lists of block maps of scalars.
enum SchemaExamples {
    enum ReadError: Error { case noExamples(String), unreadable(String) }

    /// The examples of `schema`, each as the JSON object it stands for.
    static func examples(of schema: String, in yaml: String) throws -> [[String: Any]] {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "    \(schema):") else { throw ReadError.noExamples(schema) }
        var index = start + 1
        while index < lines.count, indent(of: lines[index]) > 4 || lines[index].isEmpty {
            if lines[index] == "      examples:" { break }
            index += 1
        }
        guard index < lines.count, lines[index] == "      examples:" else { throw ReadError.noExamples(schema) }
        index += 1
        var examples: [[String: Any]] = []
        while index < lines.count, lines[index].hasPrefix("      - ") {
            let (object, next) = try map(lines, from: index, indent: 8)
            examples.append(object)
            index = next
        }
        guard !examples.isEmpty else { throw ReadError.noExamples(schema) }
        return examples
    }

    /// The block map whose first line (`- key: value`, its keys at `indent`) is `lines[start]`,
    /// and the index after it.
    private static func map(_ lines: [String], from start: Int, indent keyIndent: Int) throws -> ([String: Any], Int) {
        var object: [String: Any] = [:]
        var index = start
        while index < lines.count {
            var line = lines[index]
            if index == start {
                line = String(repeating: " ", count: keyIndent) + line.dropFirst(keyIndent)  // the "- " of the item
            } else if indent(of: line) != keyIndent || line.trimmingCharacters(in: .whitespaces).hasPrefix("- ") {
                break
            }
            let entry = line.trimmingCharacters(in: .whitespaces)
            guard let colon = entry.firstIndex(of: ":") else { throw ReadError.unreadable(line) }
            let key = String(entry[..<colon])
            let rest = entry[entry.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            index += 1
            if rest.isEmpty {
                // A list of block maps: `- key: value` items at this indent.
                var items: [[String: Any]] = []
                while index < lines.count, indent(of: lines[index]) == keyIndent,
                    lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("- ")
                {
                    let (item, next) = try map(lines, from: index, indent: keyIndent + 2)
                    items.append(item)
                    index = next
                }
                object[key] = items
            } else {
                object[key] = scalar(rest)
            }
        }
        return (object, index)
    }

    private static func scalar(_ text: String) -> Any {
        if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
            return String(text.dropFirst().dropLast())
        }
        switch text {
        case "true": return true
        case "false": return false
        case "null", "~": return NSNull()
        default: return Int(text).map { $0 as Any } ?? text
        }
    }

    private static func indent(of line: String) -> Int {
        line.prefix { $0 == " " }.count
    }
}
