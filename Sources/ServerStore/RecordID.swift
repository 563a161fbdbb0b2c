/// Identifiers for new rows: random (version 4) UUIDs drawn from `SystemRandomNumberGenerator`.
///
/// The system generator reads the kernel's random source without a file descriptor and traps if
/// it cannot, so ids never silently degrade into a constant when descriptors run out (every
/// insert would collide).
package enum RecordID {
    /// A new lowercase UUIDv4 string.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    /// A lowercase UUIDv4 string of 16 bytes from `generator`, written straight into the
    /// string's UTF-8 storage (every request id is one of these).
    package static func make<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        var bytes: (UInt64, UInt64) = (generator.next(), generator.next())
        // Invariant: raw is the tuple's 16 bytes; 16 × 2 hex digits + 4 dashes fill the 36 bytes exactly (RecordIDTests).
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
            return String(unsafeUninitializedCapacity: 36) { text in
                let digits: StaticString = "0123456789abcdef"
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    digits.withUTF8Buffer { hex in
                        text[at] = hex[Int(raw[index] >> 4)]
                        text[at + 1] = hex[Int(raw[index] & 0x0F)]
                    }
                    at += 2
                }
                return at
            }
        }
    }
}
