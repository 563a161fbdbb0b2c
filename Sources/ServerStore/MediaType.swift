/// The kinds of file a lesson's media may be, each recognised by its signature (magic bytes).
///
/// The declared `Content-Type` of an upload must name one of these, and the file's first bytes
/// must carry that type's signature: a PDF declared as `video/mp4` answers 415.
package enum MediaType: String, Sendable, CaseIterable {
    case mp4 = "video/mp4"
    case mpeg = "audio/mpeg"
    case pdf = "application/pdf"
    case png = "image/png"
    case jpeg = "image/jpeg"

    /// How many leading bytes ``matches(_:)`` needs to decide (fewer only when the file is shorter).
    package static let signatureLength = 8

    /// The type a `Content-Type` header names (parameters and case ignored), `nil` when it is not accepted.
    package init?(contentType: String) {
        let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        self.init(rawValue: mediaType)
    }

    /// Whether `prefix` (the file's first ``signatureLength`` bytes, or the whole file when shorter)
    /// starts with this type's signature.
    package func matches(_ prefix: [UInt8]) -> Bool {
        switch self {
        case .mp4:
            // ISO base media file: a box size, then the `ftyp` box type.
            return prefix.count >= 8 && prefix[4...7].elementsEqual(Array("ftyp".utf8))
        case .mpeg:
            // An ID3v2 tag, or an MPEG audio frame sync (11 set bits).
            if prefix.starts(with: Array("ID3".utf8)) { return true }
            return prefix.count >= 2 && prefix[0] == 0xFF && prefix[1] & 0xE0 == 0xE0
        case .pdf:
            return prefix.starts(with: Array("%PDF-".utf8))
        case .png:
            return prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case .jpeg:
            return prefix.starts(with: [0xFF, 0xD8, 0xFF])
        }
    }
}
