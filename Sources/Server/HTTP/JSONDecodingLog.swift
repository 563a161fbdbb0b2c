import Foundation

/// The errors of one ``JSONValueDecoder`` pass, and the placeholders that let it go on.
final class JSONDecodingLog {
    var errors: [APIError.FieldError] = []
    /// Members a ``Patch`` asked about `null` first: a member of the wrong kind there "must be a … or null".
    var nullable: Set<String> = []

    /// Records the error and returns a placeholder of `type`; throws when `type` has none.
    func fail<T>(_ path: [any CodingKey], _ code: String, _ message: String, as type: T.Type) throws -> T {
        let field = Self.name(path)
        errors.append(.init(field: field, code: code, message: message))
        guard let placeholder = Self.placeholder(type) else { throw APIError.validation(errors) }
        return placeholder
    }

    func wrongKind<T>(_ path: [any CodingKey], as type: T.Type) throws -> T {
        var message = "must be \(Self.kind(type))"
        if nullable.contains(Self.name(path)) { message += " or null" }
        return try fail(path, "invalid_type", message, as: type)
    }

    static func name(_ path: [any CodingKey]) -> String {
        let joined = path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return joined.isEmpty ? "body" : joined
    }

    private static func kind<T>(_ type: T.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Double.Type: "a number"
        case is Int.Type, is Int64.Type: "an integer"
        default: "an object"
        }
    }

    /// What a member of the wrong kind decodes as, so the pass goes on; `nil` for types that
    /// have none (decoding then stops there).
    private static func placeholder<T>(_ type: T.Type) -> T? {
        let value: Any? =
            switch type {
            case is String.Type: ""
            case is Bool.Type: false
            case is Double.Type: 0.0
            case is Int.Type: 0
            case is Int64.Type: Int64(0)
            default: nil
            }
        return value as? T
    }
}
