import Foundation
import Synchronization

/// A wall clock that moves only when a test moves it.
///
/// It starts on a whole second on purpose: tokens are issued with whole-second `iat`/`nbf`, so
/// a clock standing still on a whole second is the sharpest test of the time checks.
final class TestClock: Sendable {
    /// 2026-11-18T11:06:40Z.
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    private let current: Mutex<Date>

    init(_ start: Date = TestClock.start) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
