import Foundation

/// One server-sent event: its type (`event:`), `id:` and `data:` lines.
struct ServerSentEvent: Sendable, Equatable {
    var type = "message"
    var id: String?
    var data = ""
}

/// Reads a `text/event-stream` body as it arrives, in pieces of any size.
///
/// Lines end with LF, CR LF or CR; a blank line dispatches the event gathered so far; lines that
/// start with `:` are comments (keep-alives); unknown fields are ignored, as the HTML standard's
/// event-stream interpretation says. A line longer than ``maxLineLength`` is dropped rather than
/// buffered without bound.
struct ServerSentEventParser: Sendable {
    static let maxLineLength = 64 << 10

    private var line: [UInt8] = []
    private var lineTooLong = false
    private var afterCR = false
    private var current = ServerSentEvent()
    private var dataLines: [String] = []
    private var hasFields = false

    /// The events `data` completes, in order.
    mutating func consume(_ data: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in data {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCR = true
                endLine(into: &events)
            case UInt8(ascii: "\n"):
                endLine(into: &events)
            default:
                if line.count < Self.maxLineLength { line.append(byte) } else { lineTooLong = true }
            }
        }
        return events
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer {
            line.removeAll(keepingCapacity: true)
            lineTooLong = false
        }
        guard !lineTooLong else { return }
        if line.isEmpty {
            if hasFields {
                current.data = dataLines.joined(separator: "\n")
                events.append(current)
            }
            current = ServerSentEvent()
            dataLines = []
            hasFields = false
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let text = String(decoding: line, as: UTF8.self)
        let name: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            name = Substring(text)
            value = ""
        }
        switch name {
        case "event":
            current.type = String(value)
            hasFields = true
        case "data":
            dataLines.append(String(value))
            hasFields = true
        case "id":
            current.id = String(value)
            hasFields = true
        default:
            break
        }
    }
}
