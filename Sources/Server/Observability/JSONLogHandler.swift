import Foundation
import Logging

/// A swift-log handler writing one JSON object per line (`--log-format json`):
/// `{"ts":…,"level":…,"label":…,"message":…, …metadata}`.
public struct JSONLogHandler: LogHandler {
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
        var object: [String: Any] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = Self.plain(value)
        }
        object["ts"] = Date().formatted(.iso8601)
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        write(String(decoding: data, as: UTF8.self))
    }

    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let array): array.map(plain)
        case .dictionary(let dictionary): dictionary.mapValues(plain)
        }
    }

    /// Writes a line to standard error (one `write` per line, so lines do not interleave).
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
