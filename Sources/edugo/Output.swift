import EduGoSDK
import Foundation

/// Writes results for people or, with `--json`, for scripts.
enum Output {
    static func json(_ object: Any) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data("{}".utf8)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// One compact JSON object per line (progress events).
    static func jsonLine(_ object: Any) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
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

    /// `(cached 12 min ago, 2 pending writes, server unavailable (503))` style note.
    static func freshness(fetchedAt: Date?, pending: Int, stale: StaleReason?) -> String {
        var parts: [String] = []
        if let fetchedAt {
            let minutes = Int(Date().timeIntervalSince(fetchedAt) / 60)
            parts.append(minutes < 1 ? "cached just now" : "cached \(minutes) min ago")
        } else {
            parts.append("nothing cached yet")
        }
        if pending > 0 { parts.append("\(pending) pending write\(pending == 1 ? "" : "s")") }
        if let stale { parts.append(describe(stale)) }
        return "(" + parts.joined(separator: ", ") + ")"
    }

    /// Why data is stale, for people: `offline`, `server unavailable (503)`, `server timed out`.
    static func describe(_ reason: StaleReason) -> String {
        switch reason {
        case .offline: "offline"
        case .serverUnavailable(let status, _): "server unavailable (\(status))"
        case .timedOut: "server timed out"
        }
    }

    /// Why data is stale, for scripts: `offline` (true only when the server was unreachable),
    /// `stale_reason` (`null` when fresh) and, for an unavailable server, its `status` and
    /// `retry_after_seconds`.
    static func staleJSON(_ reason: StaleReason?) -> [String: Any] {
        var fields: [String: Any] = ["offline": reason == .offline, "stale_reason": NSNull()]
        switch reason {
        case nil: break
        case .offline: fields["stale_reason"] = "offline"
        case .timedOut: fields["stale_reason"] = "timed_out"
        case .serverUnavailable(let status, let retryAfter):
            fields["stale_reason"] = "server_unavailable"
            fields["status"] = status
            if let retryAfter { fields["retry_after_seconds"] = retryAfter.components.seconds }
        }
        return fields
    }

    static func iso(_ date: Date?) -> Any {
        date.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull()
    }
}
