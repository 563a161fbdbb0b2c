import EduGoServerStore
import Foundation

/// The checks a decoded request body runs on its members, in one pass that collects every
/// failure in the order the members are checked.
///
/// Each member reports at most one error: a member whose decoding already failed
/// (``JSONValueDecoder``: missing, or of the wrong kind) reports that error at its place in the
/// pass and is not checked again.
struct FieldValidation {
    private(set) var errors: [APIError.FieldError] = []
    /// Decoding errors not placed yet, by member, and the order they were met in.
    private var pending: [String: APIError.FieldError] = [:]
    private var pendingOrder: [String] = []
    /// Members that have an error.
    private var failed: Set<String> = []

    init(decodingErrors: [APIError.FieldError]) {
        for error in decodingErrors where pending[error.field] == nil {
            pending[error.field] = error
            pendingOrder.append(error.field)
        }
    }

    /// Every error: those of the pass, then decoding errors of members the pass never named.
    var allErrors: [APIError.FieldError] {
        errors + pendingOrder.compactMap { pending[$0] }
    }

    /// Places the member's decoding error here, if it has one.
    /// - Returns: Whether the member is valid so far (and so may be checked further).
    @discardableResult
    mutating func member(_ key: some CodingKey) -> Bool {
        let name = key.stringValue
        if let error = pending.removeValue(forKey: name) {
            errors.append(error)
            failed.insert(name)
        }
        return !failed.contains(name)
    }

    /// Whether the member has no error so far.
    func isValid(_ key: some CodingKey) -> Bool {
        !failed.contains(key.stringValue) && pending[key.stringValue] == nil
    }

    /// Records an error of a rule beyond the member checks (an email address's form, a password's rules).
    mutating func add(_ error: APIError.FieldError?) {
        guard let error else { return }
        failed.insert(error.field)
        errors.append(error)
    }

    /// Checks stored text (or, with `storesText: false`, an identifier that is only looked up) and
    /// trims stored text of the schema's whitespace.
    ///
    /// - Parameter storesText: `false` for identifiers that are only looked up (a NUL in one simply
    ///   matches nothing); text that is stored refuses NUL.
    mutating func text(_ value: inout String?, _ key: some CodingKey, length: ClosedRange<Int>, storesText: Bool = true) {
        guard member(key), let string = value else { return }
        value = nil
        // SQLite text stops at NUL: a string carrying one could never be read back whole.
        guard !storesText || !string.contains("\u{0}") else {
            return fail(key, "invalid_value", "must not contain NUL characters")
        }
        // Lengths count Unicode code points, as JSON Schema's minLength/maxLength do.
        let count = string.unicodeScalars.count
        guard length.contains(count) else {
            return fail(
                key, count < length.lowerBound ? "too_short" : "too_long",
                "must be \(length.lowerBound) to \(length.upperBound) characters")
        }
        // An id that is only looked up is taken as sent: a blank one simply matches nothing (404).
        guard storesText else {
            value = string
            return
        }
        let trimmed = string.trimmingCharacters(in: .schemaWhitespace)
        guard length.lowerBound == 0 || !trimmed.isEmpty else { return fail(key, "blank", "must not be blank") }
        value = trimmed
    }

    /// ``text(_:_:length:storesText:)`` for a required member.
    mutating func text(_ value: inout String, _ key: some CodingKey, length: ClosedRange<Int>, storesText: Bool = true) {
        var optional: String? = value
        text(&optional, key, length: length, storesText: storesText)
        value = optional ?? value
    }

    /// An identifier of another object (the schema's `Id`): 1 to 64 characters, no `/` or `\`, not
    /// dots only. It is only looked up, so it is taken as sent; a well-formed id that names nothing
    /// is the store's answer, after the request's preconditions.
    mutating func identifier(_ value: inout String?, _ key: some CodingKey) {
        text(&value, key, length: 1...64, storesText: false)
        guard let string = value, isValid(key) else { return }
        if string.contains(where: { $0 == "/" || $0 == "\\" }) || string.allSatisfy({ $0 == "." }) {
            value = nil
            fail(key, "invalid_format", "must be an identifier: no / or \\, not dots only")
        }
    }

    /// ``identifier(_:_:)`` for a required member.
    mutating func identifier(_ value: inout String, _ key: some CodingKey) {
        var optional: String? = value
        identifier(&optional, key)
        value = optional ?? value
    }

    /// A short text member that must be one of `allowed`.
    mutating func oneOf(_ value: inout String?, _ key: some CodingKey, _ allowed: [String]) {
        text(&value, key, length: 1...64)
        guard let string = value, isValid(key) else { return }
        if !allowed.contains(string) {
            fail(key, "invalid_value", "must be one of: \(allowed.joined(separator: ", "))")
        }
    }

    /// ``oneOf(_:_:_:)`` for a required member.
    mutating func oneOf(_ value: inout String, _ key: some CodingKey, _ allowed: [String]) {
        var optional: String? = value
        oneOf(&optional, key, allowed)
        value = optional ?? value
    }

    mutating func range(_ value: Int?, _ key: some CodingKey, _ range: ClosedRange<Int>) {
        guard member(key), let value, !range.contains(value) else { return }
        fail(key, "out_of_range", "must be between \(range.lowerBound) and \(range.upperBound)")
    }

    /// A nullable member holding an http(s) URL.
    mutating func url(_ value: Patch<String>, _ key: some CodingKey) {
        guard member(key), case .value(let string) = value else { return }
        guard string.count <= 2048, let url = URL(string: string), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host?.isEmpty == false
        else {
            return fail(key, "invalid_format", "must be an http(s) URL")
        }
    }

    private mutating func fail(_ key: some CodingKey, _ code: String, _ message: String) {
        failed.insert(key.stringValue)
        errors.append(.init(field: key.stringValue, code: code, message: message))
    }
}

/// A request body decoded through `Decodable` (``JSONValueDecoder``), then checked member by
/// member in one pass (``FieldValidation``); ``RequestBody/decode(_:from:)`` answers every
/// error of both steps at once.
protocol ValidatedBody: Decodable {
    /// Every member the body takes (its JSON names); another member is `unknown_field`.
    static var keys: Set<String> { get }

    /// Checks (and normalises, such as trimming) the decoded members, naming each member (checks
    /// or ``FieldValidation/member(_:)``) in the order its errors are listed.
    mutating func validate(_ validation: inout FieldValidation)
}
