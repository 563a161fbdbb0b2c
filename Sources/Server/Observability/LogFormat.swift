import Logging

/// How the server writes its log lines (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// One line of text per message (``TextLogHandler``).
    case text
    /// One JSON object per line (``JSONLogHandler``).
    case json

    /// A handler writing this format to standard error, logging from `level` up.
    public func handler(label: String, level: Logger.Level) -> any LogHandler {
        switch self {
        case .text:
            var handler = TextLogHandler(label: label)
            handler.logLevel = level
            return handler
        case .json:
            var handler = JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
