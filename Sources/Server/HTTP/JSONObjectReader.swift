import EduGoServerStore
import Foundation

/// Reads typed members out of a JSON object body, collecting every field error at once: the
/// dev routes' small bodies. (Resource bodies are ``ValidatedBody`` types decoded by
/// ``RequestBody/decode(_:from:)``.)
///
/// An unknown member is one more field error, listed after those of the members read: it never
/// hides them (the README's promise that one answer names every invalid member).
/// ``checkKeys(_:of:writable:)`` keeps that promise for the resource bodies, before they are
/// decoded, and refuses role-forbidden members.
struct JSONObjectReader {
    let object: [String: JSONValue]
    private(set) var errors: [APIError.FieldError] = []
    /// The members outside the body's known ones, as field errors.
    private let unknown: [APIError.FieldError]

    /// - Parameter known: The members the body takes; every other member is an `unknown_field` error.
    init(_ object: [String: JSONValue], known: Set<String>) {
        self.object = object
        self.unknown = Self.unknownMembers(object, known: known)
    }

    /// Refuses members outside `Body.keys` (400, listed after every error of `Body`'s own members,
    /// so one answer names them all) and then members the caller may not write (403).
    static func checkKeys<Body: ValidatedBody>(_ object: [String: JSONValue], of body: Body.Type, writable: Set<String>) throws {
        let unknown = unknownMembers(object, known: Body.keys)
        if !unknown.isEmpty {
            throw APIError.validation(RequestBody.fieldErrors(Body.self, in: object) + unknown)
        }
        let forbidden = object.keys.filter { !writable.contains($0) }.sorted()
        if !forbidden.isEmpty {
            throw APIError(
                .forbidden, code: "field_not_writable",
                detail: "You may not set: \(forbidden.joined(separator: ", ")).",
                errors: forbidden.map { .init(field: $0, code: "not_writable", message: "is not writable for your role") })
        }
    }

    /// An `unknown_field` error for each member outside `known`, in name order.
    static func unknownMembers(_ object: [String: JSONValue], known: Set<String>) -> [APIError.FieldError] {
        object.keys.filter { !known.contains($0) }.sorted()
            .map { .init(field: $0, code: "unknown_field", message: "is not a recognised field") }
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

    /// Throws every error met: those of the members read, then the unknown members.
    func throwIfInvalid() throws {
        let all = errors + unknown
        if !all.isEmpty { throw APIError.validation(all) }
    }

    private mutating func fail(_ field: String, _ code: String, _ message: String) {
        errors.append(.init(field: field, code: code, message: message))
    }
}
