/// One member of a request body that changes a resource: left out (keep the stored value),
/// `null` (clear it), or a new value.
///
/// Only members the schema declares nullable are read as a `Patch`; the others are `Value?`,
/// since `null` is refused for them.
package enum Patch<Value: Sendable>: Sendable {
    case absent, null, value(Value)

    /// The new value, `nil` when the member was left out or `null`.
    package var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// Applies the change to a nullable stored property.
    package func apply(to target: inout Value?) {
        switch self {
        case .absent: break
        case .null: target = nil
        case .value(let value): target = value
        }
    }
}

extension Patch: Decodable where Value: Decodable {
    /// `null` or a value; a member left out is ``absent`` (``KeyedDecodingContainer/decode(_:forKey:)``).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Value.self))
    }
}

extension KeyedDecodingContainer {
    /// A ``Patch`` member: ``Patch/absent`` when the body leaves it out, so a synthesized
    /// `Decodable` body tells a member left out from one sent as `null`.
    package func decode<Value: Decodable & Sendable>(_ type: Patch<Value>.Type, forKey key: Key) throws -> Patch<Value> {
        guard contains(key) else { return .absent }
        return try decodeNil(forKey: key) ? .null : .value(decode(Value.self, forKey: key))
    }
}
