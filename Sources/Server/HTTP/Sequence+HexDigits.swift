import EduGoServerStore

extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal digits, two per byte (a SHA-256 digest as stored and
    /// compared). Written out by hand: `String(format: "%02x")` per byte was the larger part of an
    /// `Idempotency-Key` fingerprint's cost.
    var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
