import Logging
import Synchronization

/// Collects everything logged through its loggers, message and metadata, as text.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger at `trace` level that writes into this capture.
    func logger(label: String = "edugo.sdk.test") -> Logger {
        Logger(label: label) { _ in CapturingLogHandler(capture: self) }
    }

    /// Every captured line.
    var entries: [String] { lines.withLock { $0 } }

    /// All captured output as one string.
    var text: String { entries.joined(separator: "\n") }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}

/// A test-only `LogHandler` that renders each event as `level message key=value ...`.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        capture.append("\(event.level) \(event.message) \(rendered)")
    }
}

extension Logger {
    /// A logger that discards everything (keeps test output quiet).
    static let silent = Logger(label: "edugo.sdk.silent") { _ in SwiftLogNoOpLogHandler() }
}
