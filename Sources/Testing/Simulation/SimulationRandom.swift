/// The simulation's only source of randomness: SplitMix64 from a seed, so a run's operations,
/// fault draws and every other choice repeat when the seed does.
public struct SimulationRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that draws the same numbers for the same `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// Whether an event of probability `chance` (0…1) happens.
    public mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }

    /// A generator of its own for `stream` (a device's number, say), independent of the draws made
    /// from this one, so one device's choices do not shift when another's change.
    public func split(_ stream: Int) -> SimulationRandom {
        var copy = SimulationRandom(seed: state ^ (UInt64(truncatingIfNeeded: stream) &* 0xD6E8_FEB8_6659_FD93))
        _ = copy.next()
        return copy
    }
}
