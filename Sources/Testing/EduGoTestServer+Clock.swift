import Foundation

/// The server's movable clock.
extension EduGoTestServer {
    /// The server's current time (its base clock plus every ``advanceClock(by:)``).
    ///
    /// Give it to your client as its clock, so both sides see time pass together:
    /// `SDKEnvironment(now: server.now, ...)`.
    public func now() -> Date {
        configuration.withLock { $0.now }().addingTimeInterval(TimeInterval(offset.withLock { $0 }))
    }

    /// Moves the server's clock forward: tokens expire, rate-limit windows pass, idempotency records age.
    ///
    /// - Parameter duration: How far, in whole seconds (fractions are dropped).
    /// - Throws: ``EduGoTestServerError/unexpectedStatus(_:_:)`` if the server refused.
    public func advanceClock(by duration: Duration) async throws {
        let seconds = max(0, Int(duration.components.seconds))
        let state: ClockState = try await devRequest.send(
            "POST", "/__dev/clock", body: ["advance_seconds": .int(seconds)], expecting: 200)
        offset.withLock { $0 = state.offsetSeconds }
    }

    /// Returns the server's clock to its base clock.
    public func resetClock() async throws {
        let state: ClockState = try await devRequest.send("DELETE", "/__dev/clock", expecting: 200)
        offset.withLock { $0 = state.offsetSeconds }
    }
}
