/// Identifiers for new rows: random (version 4) UUIDs drawn from `SystemRandomNumberGenerator`.
///
/// The system generator reads the kernel's random source without a file descriptor and traps if
/// it cannot, so ids never silently degrade into a constant when descriptors run out (they did
/// once, and every insert collided).
enum RecordID {
    /// A new lowercase UUIDv4 string.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    static func make<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}
