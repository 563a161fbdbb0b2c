import Foundation

/// The one definition of an email address: how it is trimmed, normalised, validated and compared.
///
/// Validation, storage and the uniqueness key all go through here, so a look-alike (a
/// zero-width space, a byte-order mark, a full-width `＠`) can neither slip past validation nor
/// become a second account beside the real one.
enum EmailAddress {
    /// RFC 5321: 254 octets for a whole path, 64 for the local part, 63 per domain label.
    static let maxLength = 254
    static let maxLocalLength = 64
    static let maxLabelLength = 63

    /// The stored form: trimmed of the schema's whitespace, then NFKC-normalised.
    static func normalized(_ raw: String) -> String {
        raw.trimmingCharacters(in: .schemaWhitespace).precomposedStringWithCompatibilityMapping
    }

    /// The uniqueness key: the stored form, lowercased.
    static func key(_ raw: String) -> String {
        normalized(raw).lowercased()
    }

    /// `nil` when `raw` is an acceptable address; otherwise the field error to answer with.
    ///
    /// Checks the raw text first (bounded before any normalisation work, no control or format
    /// characters anywhere), then the shape of the normalised form.
    static func validate(_ raw: String, field: String = "email") -> APIError.FieldError? {
        if let error = UserValidation.noNUL(raw, field: field) { return error }
        let invalid = APIError.FieldError(field: field, code: "invalid_format", message: "must be an email address")
        // Bound the work: trimming and NFKC never shrink a string below a quarter of its bytes.
        guard raw.utf8.count <= maxLength * 4 else { return invalid }
        if raw.unicodeScalars.contains(where: Self.isControlOrFormat) {
            return .init(field: field, code: "invalid_format", message: "must not contain control or format characters")
        }
        let email = normalized(raw)
        guard email.utf8.count <= maxLength,
            !email.unicodeScalars.contains(where: { Self.isControlOrFormat($0) || $0.properties.isWhitespace }),
            let at = email.lastIndex(of: "@")
        else { return invalid }
        let local = email[..<at]
        let domain = email[email.index(after: at)...]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !local.isEmpty, local.utf8.count <= maxLocalLength, !local.hasPrefix("."), !local.hasSuffix("."),
            !local.contains(".."), !local.contains(where: { "@\"(),:;<>[\\]".contains($0) }),
            labels.count >= 2,
            labels.allSatisfy({ label in
                !label.isEmpty && label.utf8.count <= maxLabelLength && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && !label.contains(where: { "@\"(),:;<>[\\]_!#$%&'*+/=?^`{|}~".contains($0) })
            })
        else { return invalid }
        return nil
    }

    private static func isControlOrFormat(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format: true
        default: false
        }
    }
}
