import Foundation
import Logging
import Synchronization
import Testing

@testable import EduGoServer

/// The server's log lines: one per message, metadata formatted only when a line is written.
@Suite struct LineLogHandlerTests {
    /// A metadata value that counts how often it is turned into text.
    final class CountedValue: CustomStringConvertible, Sendable {
        let reads = Mutex(0)
        var description: String {
            reads.withLock { $0 += 1 }
            return "42"
        }
    }

    /// The lines a handler wrote.
    final class Lines: Sendable {
        let written = Mutex<[String]>([])
        var all: [String] { written.withLock { $0 } }
    }

    private func logger(level: Logger.Level = .info, into lines: Lines) -> Logger {
        var logger = Logger(label: "edugo-server") { label in
            LineLogHandler(label: label, format: .text) { line in lines.written.withLock { $0.append(line) } }
        }
        logger.logLevel = level
        return logger
    }

    @Test("a text line holds the time, level, label, the logger's and the message's metadata sorted by key, the source and the message")
    func lineFormat() throws {
        let lines = Lines()
        var logger = logger(into: lines)
        logger[metadataKey: "request_id"] = "r1"
        logger[metadataKey: "b"] = "from the logger"

        logger.info("request", metadata: ["b": "from the message", "a": "1"], source: "EduGoServer")

        let line = try #require(lines.all.first)
        #expect(lines.all.count == 1)
        let time = try #require(line.split(separator: " ").first)
        #expect(try Date(String(time), strategy: .iso8601) <= Date())
        #expect(line.dropFirst(time.count) == " info edugo-server: a=1 b=from the message request_id=r1 [EduGoServer] request")
    }

    @Test("metadata set on a logger is not formatted until a line is written, and not at all below the level")
    func metadataIsFormattedWhenWritten() throws {
        let lines = Lines()
        var logger = logger(level: .error, into: lines)
        let value = CountedValue()

        logger[metadataKey: "hb.request.id"] = .stringConvertible(value)
        logger[metadataKey: "other"] = "set after it"
        logger.info("below the level")
        #expect(value.reads.withLock { $0 } == 0)
        #expect(lines.all.isEmpty)

        logger.error("written")
        #expect(value.reads.withLock { $0 } == 1)
        #expect(try #require(lines.all.first).contains("hb.request.id=42 other=set after it"))
    }

    @Test("--log-format gives a line handler at the level given; other formats are refused")
    func formats() {
        let text = LogFormat.text.handler(label: "edugo-server", level: .warning)
        let json = LogFormat.json.handler(label: "edugo-server", level: .debug)
        #expect(text is LineLogHandler)
        #expect(text.logLevel == .warning)
        #expect(json is LineLogHandler)
        #expect(json.logLevel == .debug)
        #expect(LogFormat(rawValue: "xml") == nil)
    }
}
