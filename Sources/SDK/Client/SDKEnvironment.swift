import Foundation

/// Time, sleeping and randomness, injected so tests control them.
public struct SDKEnvironment: Sendable {
    /// The wall clock.
    public var now: @Sendable () -> Date
    /// Suspends for a duration (honours task cancellation).
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A value in `-1...1` for retry jitter.
    public var jitter: @Sendable () -> Double

    /// Creates an environment from your own clock, sleep and randomness. Tests use it to run a
    /// 24-hour expiry or a backoff in microseconds.
    public init(
        now: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        jitter: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.sleep = sleep
        self.jitter = jitter
    }

    /// The real clock, `Task.sleep` and system randomness.
    public static let live = SDKEnvironment(
        now: { Date() },
        sleep: { try await Task.sleep(for: $0) },
        jitter: { Double.random(in: -1...1) })
}
