import EduGoServer

/// The simulation's only source of randomness: the dev server's seeded SplitMix64 (the one its
/// fault rules draw from), so a run's operations, fault draws and every other choice repeat when
/// the seed does.
public struct SimulationRandom: RandomNumberGenerator, Sendable {
    private var generator: SeededGenerator

    /// A generator that draws the same numbers for the same `seed`.
    public init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    public mutating func next() -> UInt64 {
        generator.next()
    }

    /// Whether an event of probability `chance` (0…1) happens.
    public mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }

    /// A generator of its own for `stream` (a device's number, say), independent of the draws made
    /// from this one, so one device's choices do not shift when another's change.
    public func split(_ stream: Int) -> SimulationRandom {
        var copy = SimulationRandom(seed: generator.state ^ (UInt64(truncatingIfNeeded: stream) &* 0xD6E8_FEB8_6659_FD93))
        _ = copy.next()
        return copy
    }
}
