import Foundation

/// A JSON document held as a value, used where the server must echo an already-encoded
/// representation (the `current` member of a conflict) or inspect a body's keys before decoding.
///
/// The server reads request bodies into it with ``JSONParser``; its `Decodable` conformance
/// (which tries each kind in turn) serves clients that decode a problem's `current`.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Encodes any value with the API's encoder and reads it back as a `JSONValue`.
    static func encoding(_ value: some Encodable) throws -> JSONValue {
        try JSONParser.parse(try APICoding.encoder.encode(value), limits: .unbounded)
    }
}
