import EduGoServerStore
import Synchronization

/// Request ids without a system call each: a process-wide counter, scrambled with keys drawn
/// once from the system's generator, written as a UUIDv4.
///
/// `SystemRandomNumberGenerator` asks the kernel for every 8 bytes, two `getrandom` calls per
/// request. A request id needs to be unique, not secret: the scramble (one SplitMix64 step) is
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
        var bits = Halves(count: count, keys: keys)
        return RecordID.make(using: &bits)
    }

    /// The id's two 64-bit halves: the count under each key, through one step of SplitMix64
    /// (``SeededGenerator``), whose output is a bijection of its seed.
    private struct Halves: RandomNumberGenerator {
        let count: UInt64
        let keys: (UInt64, UInt64)
        var isFirst = true

        mutating func next() -> UInt64 {
            defer { isFirst = false }
            var step = SeededGenerator(seed: count ^ (isFirst ? keys.0 : keys.1))
            return step.next()
        }
    }
}
