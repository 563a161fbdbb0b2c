import Foundation
import Synchronization
import Testing

@testable import EduGoServer

@Suite(.timeLimit(.minutes(3))) struct HealthProbeTests {
    @Test("the database is asked at most once per interval, and its new answer shows after the interval")
    func probeAsksOncePerInterval() async throws {
        let now = Mutex(ContinuousClock.now)
        let answers = Mutex<(asked: Int, reachable: Bool)>((0, true))
        let probe = HealthProbe(interval: .seconds(1), clock: { now.withLock { $0 } }) {
            answers.withLock { $0.asked += 1; return $0.reachable }
        }
        #expect(await probe.isReachable())
        #expect(await probe.isReachable())
        #expect(answers.withLock { $0.asked } == 1)

        answers.withLock { $0.reachable = false }
        now.withLock { $0 += .milliseconds(900) }
        #expect(await probe.isReachable(), "within the interval the last answer stands")

        now.withLock { $0 += .milliseconds(200) }
        #expect(await probe.isReachable() == false)
        #expect(answers.withLock { $0.asked } == 2)
    }
}
