import Crypto
import Foundation

/// Ids for seeded rows, derived from what identifies them (tenant, course key, lesson key, email)
/// instead of drawn at random, so seeding the same description again names the same rows.
///
/// Shaped like the server's other ids (a lowercase UUID string; version 8, "custom"), from the
/// first 16 bytes of a SHA-256 of the parts.
enum SeedID {
    static func make(_ parts: String...) -> String {
        var digest = Array(SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8)).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x80
        digest[8] = (digest[8] & 0x3F) | 0x80
        var text = ""
        text.reserveCapacity(36)
        for (index, byte) in digest.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append("-") }
            text.append(String(byte >> 4, radix: 16))
            text.append(String(byte & 0x0F, radix: 16))
        }
        return text
    }
}
