import Foundation

/// A response body that writes its JSON straight into bytes, without `JSONEncoder`'s boxing of
/// every value: a page of 20 courses spent most of its encoding time there.
///
/// A conforming type writes exactly what ``APICoding/encode(_:)`` would write through its
/// `Encodable` conformance, member for member (`JSONWritableTests` compares the two); members may
/// come in another order.
protocol JSONWritable: Encodable {
    func write(to json: inout JSONBytes)
}

/// The bytes of one JSON text, written value by value: objects and arrays open and close, and
/// ``key(_:)`` writes a member's name with the comma before it.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    /// Whether the value just opened still has no member or element (so no comma before the next).
    private var atStart = true

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        atStart = true
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        atStart = false
    }

    /// A member's name; its value follows. `name` is written as it is: a plain ASCII key.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        atStart = true
    }

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        // Invariant: start <= index < utf8.count, so every rebased run lies inside the string's own UTF-8 (JSONBytesTests).
        value.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                Self.appendEscape(of: byte, to: &bytes)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
        atStart = false
    }

    mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        atStart = false
    }

    mutating func int(_ value: Int?) {
        if let value { int(value) } else { null() }
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
        atStart = false
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
        atStart = false
    }

    /// `date` as `JSONEncoder`'s `.iso8601` strategy writes it: UTC, whole seconds,
    /// `yyyy-MM-ddTHH:mm:ssZ`.
    mutating func date(_ date: Date) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        RFC3339.append(date, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        atStart = false
    }

    mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    /// An array of `values`.
    mutating func array(_ values: [some JSONWritable]) {
        beginArray()
        for value in values { value.write(to: &self) }
        endArray()
    }

    /// A comma before every member or element but the first; none before a member's value.
    private mutating func separate() {
        if !atStart { bytes.append(UInt8(ascii: ",")) }
    }

    /// `"`, `\` and the control characters, spelled as `JSONEncoder` spells them.
    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            // Invariant: byte < 0x20 here, so both indices into the 16 digits are below 16.
            let digits: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(digits.utf8Start[Int(byte >> 4)])
            bytes.append(digits.utf8Start[Int(byte & 0x0F)])
        }
    }
}

extension JSONWritable {
    /// The value's JSON text.
    var jsonData: Data {
        var json = JSONBytes()
        write(to: &json)
        return Data(json.bytes)
    }
}
