import Foundation

/// Writes results for people or, with `--json`, for scripts.
enum Output {
    static func json(_ object: Any) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data("{}".utf8)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("edugo: " + text + "\n").utf8))
    }

    static func isTerminal() -> Bool {
        isatty(STDOUT_FILENO) == 1
    }

    /// `(cached 12 min ago, 2 pending writes)` style note.
    static func freshness(fetchedAt: Date?, pending: Int, offline: Bool) -> String {
        var parts: [String] = []
        if let fetchedAt {
            let minutes = Int(Date().timeIntervalSince(fetchedAt) / 60)
            parts.append(minutes < 1 ? "cached just now" : "cached \(minutes) min ago")
        } else {
            parts.append("nothing cached yet")
        }
        if pending > 0 { parts.append("\(pending) pending write\(pending == 1 ? "" : "s")") }
        if offline { parts.append("offline") }
        return "(" + parts.joined(separator: ", ") + ")"
    }

    static func iso(_ date: Date?) -> Any {
        date.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull()
    }
}
