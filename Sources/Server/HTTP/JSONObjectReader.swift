import EduGoServerStore
import Foundation

/// Reads typed members out of a JSON object body, collecting every field error at once.
///
/// Bodies are read this way (rather than with `Decodable`, which stops at the first error) so
/// that every invalid member is named in one answer, PATCH can tell an absent member from an
/// explicit `null` (``Patch``), and unknown and role-forbidden members are caught. Each request
/// body type (`CourseDraft`, `CourseChanges`, …) reads itself with one, then calls
/// ``values(_:)`` for its required members.
struct JSONObjectReader {
    let object: [String: JSONValue]
    private(set) var errors: [APIError.FieldError] = []

    init(_ object: [String: JSONValue]) {
        self.object = object
    }

    /// Refuses members outside `allowed` (400) and members the caller may not write (403).
    static func checkKeys(_ object: [String: JSONValue], known: Set<String>, writable: Set<String>) throws {
        let unknown = object.keys.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw APIError.validation(unknown.map { .init(field: $0, code: "unknown_field", message: "is not a recognised field") })
        }
        let forbidden = object.keys.filter { !writable.contains($0) }.sorted()
        if !forbidden.isEmpty {
            throw APIError(
                .forbidden, code: "field_not_writable",
                detail: "You may not set: \(forbidden.joined(separator: ", ")).",
                errors: forbidden.map { .init(field: $0, code: "not_writable", message: "is not writable for your role") })
        }
    }

    /// - Parameter storesText: `false` for identifiers that are only looked up (a NUL in one simply
    ///   matches nothing); text that is stored refuses NUL.
    mutating func string(_ key: String, required: Bool = false, length: ClosedRange<Int>, storesText: Bool = true) -> String? {
        guard let value = object[key] else {
            if required { fail(key, "required", "is required") }
            return nil
        }
        guard case .string(let string) = value else {
            fail(key, "invalid_type", "must be a string")
            return nil
        }
        // SQLite text stops at NUL: a string carrying one could never be read back whole.
        guard !storesText || !string.contains("\u{0}") else {
            fail(key, "invalid_value", "must not contain NUL characters")
            return nil
        }
        // Lengths count Unicode code points, as JSON Schema's minLength/maxLength do.
        let count = string.unicodeScalars.count
        guard length.contains(count) else {
            fail(key, count < length.lowerBound ? "too_short" : "too_long",
                 "must be \(length.lowerBound) to \(length.upperBound) characters")
            return nil
        }
        // An id that is only looked up is taken as sent: a blank one simply matches nothing (404).
        guard storesText else { return string }
        let trimmed = string.trimmingCharacters(in: .schemaWhitespace)
        if length.lowerBound > 0 && trimmed.isEmpty {
            fail(key, "blank", "must not be blank")
            return nil
        }
        return trimmed
    }

    /// A string member that also accepts `null` (used for optional URLs).
    mutating func nullableURL(_ key: String) -> Patch<String> {
        guard let value = object[key] else { return .absent }
        switch value {
        case .null: return .null
        case .string(let string):
            guard string.count <= 2048, let url = URL(string: string), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme), url.host?.isEmpty == false
            else {
                fail(key, "invalid_format", "must be an http(s) URL")
                return .absent
            }
            return .value(string)
        default:
            fail(key, "invalid_type", "must be a string or null")
            return .absent
        }
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let bool) = value else {
            fail(key, "invalid_type", "must be a boolean")
            return nil
        }
        return bool
    }

    mutating func int(_ key: String, required: Bool = false, range: ClosedRange<Int>) -> Int? {
        guard let value = object[key] else {
            if required { fail(key, "required", "is required") }
            return nil
        }
        guard case .integer(let number) = value else {
            fail(key, "invalid_type", "must be an integer")
            return nil
        }
        let int = Int(number)
        guard range.contains(int) else {
            fail(key, "out_of_range", "must be between \(range.lowerBound) and \(range.upperBound)")
            return nil
        }
        return int
    }

    mutating func oneOf(_ key: String, required: Bool = false, _ allowed: [String]) -> String? {
        guard let value = string(key, required: required, length: 1...64) else { return nil }
        guard allowed.contains(value) else {
            fail(key, "invalid_value", "must be one of: \(allowed.joined(separator: ", "))")
            return nil
        }
        return value
    }

    mutating func add(_ error: APIError.FieldError?) {
        if let error { errors.append(error) }
    }

    func throwIfInvalid() throws {
        if !errors.isEmpty { throw APIError.validation(errors) }
    }

    /// Throws every field error collected so far (`400 validation_failed`); otherwise returns the
    /// values of the required members read with `required: true`.
    ///
    /// A required member reads as `nil` only after recording its error, so once no error was
    /// recorded each of them holds a value.
    func values<each Value>(_ required: repeat (each Value)?) throws -> (repeat each Value) {
        try throwIfInvalid()
        return (repeat try Self.present(each required))
    }

    private static func present<Value>(_ value: Value?) throws -> Value {
        guard let value else { throw APIError.internalError }
        return value
    }

    private mutating func fail(_ field: String, _ code: String, _ message: String) {
        errors.append(.init(field: field, code: code, message: message))
    }
}
