import Foundation
import Logging

/// How the server writes its log lines (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// One line of text per message: `<ISO 8601 time> <level> <label>: <key>=<value> … [<source>]
    /// <message>`, metadata sorted by key.
    case text
    /// One JSON object per line: `{"ts":…,"level":…,"label":…,"message":…, …metadata}`.
    case json

    /// A handler writing this format to standard error, logging from `level` up.
    public func handler(label: String, level: Logger.Level) -> any LogHandler {
        var handler = LineLogHandler(label: label, format: self)
        handler.logLevel = level
        return handler
    }

    /// One message as a line of this format (`nil` when JSON cannot encode it).
    func line(level: Logger.Level, label: String, metadata: Logger.Metadata, source: String, message: String) -> String? {
        let time = Date().formatted(.iso8601)
        switch self {
        case .text:
            var line = "\(time) \(level) \(label):"
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
                line += " \(key)=\(value)"
            }
            return line + " [\(source)] \(message)"
        case .json:
            var object = metadata.mapValues(Self.plain)
            object["ts"] = time
            object["level"] = level.rawValue
            object["label"] = label
            object["message"] = message
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }

    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let array): array.map(plain)
        case .dictionary(let dictionary): dictionary.mapValues(plain)
        }
    }
}
