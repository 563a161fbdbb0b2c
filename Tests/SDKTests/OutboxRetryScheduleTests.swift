import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// An outbox item has one retry schedule, the outbox's own (backoff, `Retry-After`): its send is
/// one attempt, never the client's retry policy nested inside it.
@Suite(.timeLimit(.minutes(1))) struct OutboxRetryScheduleTests {
    @Test("with the client's default retry policy, a 503 on a queued write is one request, rescheduled by the outbox")
    func oneAttemptPerSend() async throws {
        // Given a client whose own calls retry (the default policy) and a server answering 503
        let harness = try await OfflineHarness(retryPolicy: .default)
        harness.routes.on(.patch, "/v1/users/me", .response(.problem(503, code: "unavailable")))
        _ = try await harness.profile.update(firstName: "Eve")

        // When it drains
        let report = await harness.engine.syncNow()

        // Then it sent once, slept never, and the item waits for the outbox's backoff
        #expect(report.remaining == 1)
        #expect(harness.requests(.patch, "/v1/users/me").count == 1)
        #expect(harness.environment.sleeps.isEmpty)
        let item = try #require(try await harness.outbox.pending().first)
        #expect(item.nextAttemptAt == harness.environment.now.addingTimeInterval(2))
    }
}
