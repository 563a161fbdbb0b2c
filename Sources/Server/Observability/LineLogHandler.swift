import Foundation
import Logging

/// The server's swift-log handler: one line per message, in a ``LogFormat``, to standard error.
///
/// Metadata is formatted when a line is written, never when it is set. Hummingbird gives every
/// request's logger its own `hb.request.id`; swift-log's `StreamLogHandler` formats all of its
/// metadata again on each set, which cost every request about 8,000 instructions (4 % of
/// `/health`) even at a level that writes nothing.
public struct LineLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let format: LogFormat
    private let write: @Sendable (String) -> Void

    /// - Parameters:
    ///   - label: The logger's label.
    ///   - format: How each line is written.
    ///   - write: Where each line goes (standard error by default).
    public init(label: String, format: LogFormat, write: @escaping @Sendable (String) -> Void = LineLogHandler.standardError) {
        self.label = label
        self.format = format
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let line = format.line(
            level: event.level, label: label, metadata: metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }),
            source: event.source, message: event.message.description)
        if let line { write(line) }
    }

    /// Writes a line to standard error (one `write` per line, so lines do not interleave).
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
