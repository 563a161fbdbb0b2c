import Foundation

/// Reads JSON text into a ``JSONValue`` in one pass, choosing each value's kind from its first
/// byte, under a nesting depth and an element count bound.
///
/// Request bodies are read with it before anything is decoded: its cost is linear in the body
/// and it stops at the first byte past a bound, where `Decodable` (which can only learn a value's
/// kind by trying each kind in turn) spends seconds on a megabyte of `[{},{},…]`.
struct JSONParser {
    /// How much structure a document may have.
    struct Limits: Sendable, Equatable {
        /// The most arrays and objects nested inside each other.
        var depth: Int
        /// The most values (members, elements and scalars, the document itself included).
        var elements: Int

        /// What a request body may hold: no request of the API nests more than a few levels or
        /// sends more than a few dozen members.
        static let requestBody = Limits(depth: 32, elements: 10_000)
        /// For documents the server wrote itself.
        static let unbounded = Limits(depth: 512, elements: .max)
    }

    /// Why a document was refused.
    enum Failure: Error, Equatable {
        /// Not JSON: a byte where none may be, invalid UTF-8, a lone surrogate, trailing content.
        case malformed
        /// Arrays and objects nested deeper than ``Limits/depth``.
        case tooDeep
        /// More values than ``Limits/elements``.
        case tooManyElements
    }

    /// Parses `data` as one JSON document.
    /// - Throws: ``Failure``.
    static func parse(_ data: Data, limits: Limits = .requestBody) throws -> JSONValue {
        // Invariant: the parser lives only inside this closure and reads bytes[i] only for i < bytes.count (current, literal's guard).
        try data.withUnsafeBytes { bytes in
            var parser = JSONParser(bytes: bytes, limits: limits)
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.position == bytes.count else { throw Failure.malformed }
            return value
        }
    }

    private let bytes: UnsafeRawBufferPointer
    private let limits: Limits
    private var position = 0
    private var elements = 0

    private init(bytes: UnsafeRawBufferPointer, limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        elements += 1
        guard elements <= limits.elements else { throw Failure.tooManyElements }
        skipWhitespace()
        guard let byte = current else { throw Failure.malformed }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw Failure.malformed
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        guard depth <= limits.depth else { throw Failure.tooDeep }
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw Failure.malformed }
            let key = try string()
            skipWhitespace()
            try expect(":")
            members[key] = try value(depth: depth)
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            try expect("}")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        guard depth <= limits.depth else { throw Failure.tooDeep }
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            try expect("]")
            return .array(items)
        }
    }

    private mutating func expect(_ character: Unicode.Scalar) throws {
        guard current == UInt8(ascii: character) else { throw Failure.malformed }
        position += 1
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw Failure.malformed }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] {
            throw Failure.malformed
        }
        position += count
    }

    /// A string from its opening quote to its closing one; the text between is UTF-8 checked.
    private mutating func string() throws -> String {
        position += 1
        let start = position
        // The common case: no escapes, read the bytes as they are.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw Failure.malformed }
            position += 1
        }
        guard let stop = current else { throw Failure.malformed }
        var utf8 = Array(bytes[start..<position])
        if stop == UInt8(ascii: "\"") {
            position += 1
            return try Self.text(utf8)
        }
        while let byte = current {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try Self.text(utf8)
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case ..<0x20:
                throw Failure.malformed
            default:
                utf8.append(byte)
            }
        }
        throw Failure.malformed
    }

    private static func text(_ utf8: [UInt8]) throws -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Failure.malformed }
        return text
    }

    /// The escape after a backslash, appended as UTF-8.
    private mutating func escape(into utf8: inout [UInt8]) throws {
        guard let byte = current else { throw Failure.malformed }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                try expect("\\")
                try expect("u")
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw Failure.malformed }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Failure.malformed }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw Failure.malformed
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard bytes.count - position >= 4 else { throw Failure.malformed }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure.malformed
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`: an integer when its value is whole
    /// and fits in 64 bits, otherwise a finite double.
    private mutating func number() throws -> JSONValue {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, Self.isDigit(first) else { throw Failure.malformed }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard requireDigits() else { throw Failure.malformed }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard requireDigits() else { throw Failure.malformed }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw Failure.malformed }
        // `1.0` and `1e2` are whole numbers, as `Decodable` reads them into an integer too.
        if double.rounded() == double, let integer = Int64(exactly: double) { return .integer(integer) }
        return .number(double)
    }

    private mutating func requireDigits() -> Bool {
        guard let byte = current, Self.isDigit(byte) else { return false }
        skipDigits()
        return true
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { position += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
