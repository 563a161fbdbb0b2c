import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) struct BackoffTests {
    func delays(_ backoff: Backoff, retries: ClosedRange<Int> = 1...5) -> [Duration] {
        retries.map { backoff.delay(forRetry: $0) }
    }

    @Test("no backoff never waits")
    func none() {
        #expect(delays(.none) == Array(repeating: .zero, count: 5))
    }

    @Test("constant backoff waits the same before every retry")
    func constant() {
        #expect(delays(.constant(.seconds(2))) == Array(repeating: .seconds(2), count: 5))
    }

    @Test("linear backoff grows by the base each retry")
    func linear() {
        #expect(delays(.linear(base: .milliseconds(300))) == [300, 600, 900, 1200, 1500].map { .milliseconds($0) })
    }

    @Test("exponential backoff multiplies the base each retry")
    func exponential() {
        #expect(delays(.exponential(base: .seconds(1), multiplier: 2, maximum: .seconds(60))) == [1, 2, 4, 8, 16].map { .seconds($0) })
    }

    @Test("exponential backoff never exceeds its maximum")
    func exponentialCap() {
        let backoff = Backoff.exponential(base: .seconds(1), multiplier: 3, maximum: .seconds(10))
        #expect(delays(backoff, retries: 1...8) == [1, 3, 9, 10, 10, 10, 10, 10].map { .seconds($0) })
    }

    @Test("a retry number far past the cap answers the cap, never a Duration that overflows", arguments: [68, 200, 2_000, Int.max])
    func exponentialFarPastTheCap(retry: Int) {
        // The outbox's own backoff: a write the server never answers is retried for days.
        #expect(OutboxDecision.backoff.delay(forRetry: retry) == .seconds(300))
        #expect(Backoff.exponential(base: .seconds(1), multiplier: 10, maximum: .seconds(60)).delay(forRetry: retry) == .seconds(60))
    }

    @Test("a retry number below 1 is treated as the first retry", arguments: [0, -3])
    func retryNumberFloor(retry: Int) {
        #expect(Backoff.linear(base: .seconds(1)).delay(forRetry: retry) == .seconds(1))
        #expect(Backoff.exponential(base: .seconds(1), multiplier: 2, maximum: .seconds(8)).delay(forRetry: retry) == .seconds(1))
    }
}
