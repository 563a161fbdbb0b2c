import Foundation

/// Decodes a `Decodable` request body from the ``JSONValue`` the bounded ``JSONParser`` read,
/// collecting every member's error instead of stopping at the first.
///
/// A member that is missing (and not optional) or of the wrong JSON kind is recorded as a field
/// error (`required`, `invalid_type`) and decoded as a placeholder, so decoding goes on to the
/// next member; ``RequestBody/decode(_:from:)`` then runs the body's own checks and answers
/// every error at once. Kinds are strict: an integer member takes only a number written
/// without fraction or exponent, and `null` is a value of the wrong kind unless the member is a
/// ``Patch`` (absent and `null` differ there).
struct JSONValueDecoder {
    /// The decoded value and the field errors met on the way (in the order the members were read).
    ///
    /// - Throws: `400 validation_failed` when a member of a kind without a placeholder (a nested
    ///   object, say) cannot be decoded; the errors collected so far are included.
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> (T, [APIError.FieldError]) {
        let log = JSONDecodingLog()
        do {
            let decoded = try T(from: ValueDecoder(value: value, codingPath: [], log: log))
            return (decoded, log.errors)
        } catch let error as APIError {
            throw error
        } catch {
            let unreadable = APIError.FieldError(field: "body", code: "invalid_value", message: "is not valid")
            throw APIError.validation(log.errors.isEmpty ? [unreadable] : log.errors)
        }
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let log: JSONDecodingLog
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                [String: JSONValue].self, .init(codingPath: codingPath, debugDescription: "not an object"))
        }
        return KeyedDecodingContainer(KeyedContainer(object: object, codingPath: codingPath, log: log))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.typeMismatch(
                [JSONValue].self, .init(codingPath: codingPath, debugDescription: "not an array"))
        }
        return UnkeyedContainer(elements: elements, codingPath: codingPath, log: log)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath, log: log)
    }
}

/// Reads one value of a requested type, or records that it is of the wrong kind.
private func decodeValue<T: Decodable>(
    _ value: JSONValue, as type: T.Type, at path: [any CodingKey], log: JSONDecodingLog
) throws -> T {
    let decoded: Any?
    switch type {
    case is String.Type:
        if case .string(let string) = value { decoded = string } else { decoded = nil }
    case is Bool.Type:
        if case .bool(let bool) = value { decoded = bool } else { decoded = nil }
    case is Int.Type:
        if case .integer(let number) = value, let int = Int(exactly: number) { decoded = int } else { decoded = nil }
    case is Int64.Type:
        if case .integer(let number) = value { decoded = number } else { decoded = nil }
    case is Double.Type:
        switch value {
        case .integer(let number): decoded = Double(number)
        case .number(let number): decoded = number
        default: decoded = nil
        }
    case is Float.Type, is any FixedWidthInteger.Type:
        // No request body has such a member; their own `init(from:)` would ask for them again.
        throw DecodingError.typeMismatch(type, .init(codingPath: path, debugDescription: "unsupported member type"))
    default:
        return try T(from: ValueDecoder(value: value, codingPath: path, log: log))
    }
    if let decoded = decoded as? T { return decoded }
    return try log.wrongKind(path, as: type)
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    let codingPath: [any CodingKey]
    let log: JSONDecodingLog

    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        log.nullable.insert(JSONDecodingLog.name(codingPath + [key]))
        return object[key.stringValue] == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let member = object[key.stringValue] else {
            return try log.fail(codingPath + [key], "required", "is required", as: type)
        }
        return try decodeValue(member, as: type, at: codingPath + [key], log: log)
    }

    /// A member that is left out reads as `nil`; one that is present, `null` included, must be of the type.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let member = object[key.stringValue] else { return nil }
        return try decodeValue(member, as: type, at: codingPath + [key], log: log)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key], log: log)
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key], log: log)
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: .object(object), codingPath: codingPath, log: log)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key], log: log)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let log: JSONDecodingLog
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], log: JSONDecodingLog) {
        self.elements = elements
        self.codingPath = codingPath
        self.log = log
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var path: [any CodingKey] { codingPath + [IndexKey(intValue: currentIndex)] }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "past the end"))
        }
        let value = try decodeValue(elements[currentIndex], as: type, at: path, log: log)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }

    private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        try decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let decoder = try next()
        return try decoder.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }

    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: path, debugDescription: "past the end"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], codingPath: path, log: log)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let log: JSONDecodingLog

    func decodeNil() -> Bool {
        log.nullable.insert(JSONDecodingLog.name(codingPath))
        return value == .null
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(value, as: type, at: codingPath, log: log)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(value, as: type, at: codingPath, log: log) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(value, as: type, at: codingPath, log: log) }
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
