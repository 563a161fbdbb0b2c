import EduGoGuarded
import Foundation

/// The dev server's wall clock: the configured clock plus an offset that `POST /__dev/clock`
/// moves forward, so tokens expire, rate-limit windows pass and idempotency records age on demand.
///
/// In dev mode every time-based part of the server reads ``now()`` (it replaces
/// ``ServerConfiguration/now`` before anything is built).
final class MovableClock: Sendable {
    private let base: @Sendable () -> Date
    private let offset = Guarded<Int>(0)

    init(base: @escaping @Sendable () -> Date) {
        self.base = base
    }

    /// The moved time.
    func now() -> Date {
        base().addingTimeInterval(TimeInterval(offsetSeconds))
    }

    /// The moved time and the offset, read together.
    func snapshot() -> (now: Date, offsetSeconds: Int) {
        let offset = offsetSeconds
        return (base().addingTimeInterval(TimeInterval(offset)), offset)
    }

    /// Seconds the clock runs ahead of the configured one.
    var offsetSeconds: Int { offset.withLock { $0 } }

    /// Moves the clock forward; returns the new offset.
    @discardableResult
    func advance(bySeconds seconds: Int) -> Int {
        offset.withLock { offset in
            let (sum, overflow) = offset.addingReportingOverflow(seconds)
            offset = overflow ? Int.max : sum
            return offset
        }
    }

    /// Returns to the configured time.
    func reset() {
        offset.withLock { $0 = 0 }
    }
}
