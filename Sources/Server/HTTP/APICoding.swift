import Foundation

/// The JSON conventions of the EduGo API: snake_case keys, RFC 3339 UTC timestamps.
enum APICoding {
    /// Response bodies. Members are not sorted: entity tags name versions, not bytes, so no
    /// one depends on the order, and sorting every object costs measurably under load.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// Bodies whose coding keys are the API's snake_case names already (``SnakeCaseKeyed``):
    /// no key is converted.
    static let snakeKeyedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// Encodes a response body: one that writes its own JSON (``JSONWritable``) writes it,
    /// any other goes through the encoder its keys need.
    static func encode(_ value: some Encodable) throws -> Data {
        if let writable = value as? any JSONWritable { return writable.jsonData }
        return try (value is any SnakeCaseKeyed ? snakeKeyedEncoder : encoder).encode(value)
    }

    /// One spelling per JSON value (members sorted), for fingerprints that compare bodies.
    static let canonicalEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// A response body whose coding keys, and those of everything it contains, are spelled in
/// snake_case already, so it is encoded without converting each key of each object (a
/// measurable share of a course page's time under load).
protocol SnakeCaseKeyed: Encodable {}
