import Foundation

/// The one definition of an email address: how it is trimmed, normalised, validated and compared.
///
/// Validation, storage and the uniqueness key all go through here, so a look-alike (a
/// zero-width space, a byte-order mark, a full-width `＠`) can neither slip past validation nor
/// become a second account beside the real one.
package enum EmailAddress {
    /// RFC 5321: 254 octets for a whole path, 64 for the local part, 63 per domain label.
    package static let maxLength = 254
    package static let maxLocalLength = 64
    package static let maxLabelLength = 63

    /// The stored form: trimmed of the schema's whitespace, then NFKC-normalised.
    package static func normalized(_ raw: String) -> String {
        raw.trimmingCharacters(in: .schemaWhitespace).precomposedStringWithCompatibilityMapping
    }

    /// The uniqueness key: the stored form, lowercased.
    package static func key(_ raw: String) -> String {
        normalized(raw).lowercased()
    }
}
