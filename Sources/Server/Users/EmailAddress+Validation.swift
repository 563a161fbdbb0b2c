import EduGoServerStore
import Foundation

/// Validating an address a request sends, by ``EmailAddress``'s rules.
extension EmailAddress {
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
