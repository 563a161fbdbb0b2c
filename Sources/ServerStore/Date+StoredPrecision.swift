import Foundation

extension Date {
    /// This time at the precision the store keeps: whole milliseconds, rounded down.
    ///
    /// GRDB writes a date as `yyyy-MM-dd HH:mm:ss.SSS`, rounding to the nearest millisecond, and
    /// the API writes whole seconds, rounding down. A time 0.9996 s past a second would be
    /// answered as that second by the write and as the next one by every later read; a time
    /// already on a millisecond is stored and answered the same way.
    package var storedPrecision: Date {
        Date(timeIntervalSinceReferenceDate: (timeIntervalSinceReferenceDate * 1_000).rounded(.down) / 1_000)
    }
}
