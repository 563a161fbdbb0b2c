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
