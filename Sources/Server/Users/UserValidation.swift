import EduGoServerStore
import Foundation

/// Field rules shared by registration, admin user creation and profile edits.
enum UserValidation {
    static func email(_ value: String, field: String = "email") -> APIError.FieldError? {
        EmailAddress.validate(value, field: field)
    }

    /// At least 8 characters and at most 72 UTF-8 bytes: bcrypt ignores everything past byte 72,
    /// so longer passwords are refused rather than silently truncated.
    static func password(_ value: String, field: String = "password") -> APIError.FieldError? {
        if let error = noNUL(value, field: field) { return error }
        if value.unicodeScalars.count < 8 { return .init(field: field, code: "too_short", message: "must be at least 8 characters") }
        if value.utf8.count > 72 { return .init(field: field, code: "too_long", message: "must be at most 72 bytes") }
        return nil
    }

    static func name(_ value: String, field: String) -> APIError.FieldError? {
        if let error = noNUL(value, field: field) { return error }
        let trimmed = value.trimmingCharacters(in: .schemaWhitespace)
        if value.unicodeScalars.isEmpty { return .init(field: field, code: "too_short", message: "must not be empty") }
        if value.unicodeScalars.count > 100 { return .init(field: field, code: "too_long", message: "must be at most 100 characters") }
        if trimmed.isEmpty { return .init(field: field, code: "blank", message: "must not be blank") }
        return nil
    }

    /// SQLite text stops at NUL and bcrypt reads C strings: NUL is never accepted.
    static func noNUL(_ value: String, field: String) -> APIError.FieldError? {
        value.contains("\u{0}") ? .init(field: field, code: "invalid_value", message: "must not contain NUL characters") : nil
    }
}
