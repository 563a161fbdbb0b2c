import EduGoSDK
import Foundation
import Synchronization

/// One wall clock shared by the server and the SDK, moved only by the test.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The SDK's environment on this clock: sleeping returns at once (and records nothing).
    var sdkEnvironment: SDKEnvironment {
        SDKEnvironment(now: { self.now }, sleep: { _ in try Task.checkCancellation() }, jitter: { 0 })
    }
}
