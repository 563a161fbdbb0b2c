import EduGoServerStore
import Synchronization

/// Request ids without a system call each: a process-wide counter, scrambled with keys drawn
/// once from the system's generator, written as a UUIDv4.
///
/// `SystemRandomNumberGenerator` asks the kernel for every 8 bytes, two `getrandom` calls per
/// request. A request id needs to be unique, not secret: the scramble (SplitMix64's finalizer) is
/// a bijection, so two counter values never give the same 64 bits.
final class RequestIDSource: Sendable {
    static let shared = RequestIDSource(keys: (.random(in: .min ... .max), .random(in: .min ... .max)))

    private let counter = Atomic<UInt64>(0)
    private let keys: (UInt64, UInt64)

    init(keys: (UInt64, UInt64)) {
        self.keys = keys
    }

    /// A new id, never the same as one this source gave before.
    func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var bits = Scrambled(count: count, keys: keys)
        return RecordID.make(using: &bits)
    }

    /// The two 64-bit halves of one id.
    private struct Scrambled: RandomNumberGenerator {
        let count: UInt64
        let keys: (UInt64, UInt64)
        var half = 0

        mutating func next() -> UInt64 {
            defer { half += 1 }
            return Self.finalize(count ^ (half == 0 ? keys.0 : keys.1))
        }

        /// SplitMix64's finalizer: a bijection of 64-bit values that spreads every input bit.
        static func finalize(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
