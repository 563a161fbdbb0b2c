import Foundation
import Synchronization

@_spi(EduGoInternals) @testable import EduGoSDK

/// A virtual clock, a recording sleep and fixed jitter, handed to the SDK as an ``SDKEnvironment``.
///
/// Sleeping never waits: it records the duration and moves the clock forward by it, so
/// `Retry-After` dates and token expiry behave as they would in real time.
final class TestEnvironment: Sendable {
    private struct State {
        var now: Date
        var sleeps: [Duration] = []
        var jitter: Double
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - now: the clock's start, a whole second so HTTP dates round-trip exactly.
    ///   - jitter: the value the environment's randomness returns (`-1...1`).
    init(now: Date = Date(timeIntervalSince1970: 1_800_000_000), jitter: Double = 0) {
        state = Mutex(State(now: now, jitter: jitter))
    }

    var now: Date { state.withLock { $0.now } }

    /// Every duration the SDK slept for, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func advance(by duration: Duration) {
        state.withLock { $0.now = $0.now.addingTimeInterval(duration.timeInterval) }
    }

    func setJitter(_ value: Double) {
        state.withLock { $0.jitter = value }
    }

    var sdk: SDKEnvironment {
        SDKEnvironment(
            now: { self.now },
            sleep: { duration in
                try Task.checkCancellation()
                self.state.withLock {
                    $0.sleeps.append(duration)
                    $0.now = $0.now.addingTimeInterval(duration.timeInterval)
                }
            },
            jitter: { self.state.withLock { $0.jitter } })
    }
}

extension Date {
    static func + (date: Date, duration: Duration) -> Date { date.addingTimeInterval(duration.timeInterval) }
    static func - (date: Date, duration: Duration) -> Date { date.addingTimeInterval(-duration.timeInterval) }
}
