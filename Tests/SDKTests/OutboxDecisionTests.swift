import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The outbox's decision on an attempt's outcome, without I/O.
@Suite(.timeLimit(.minutes(1))) struct OutboxDecisionTests {
    static let progress = ResourceKey.progress(course: "course-1", lesson: "lesson-1")

    static func problem(_ code: String) -> ProblemDetails? {
        ProblemDetails.decode(Data(#"{"status":409,"code":"\#(code)"}"#.utf8))
    }

    @Test("409 idempotency_in_progress is retried after its Retry-After, never a dead letter")
    func idempotencyInProgressHonoursRetryAfter() {
        let decision = OutboxDecision.decide(
            status: 409, problem: Self.problem("idempotency_in_progress"), retryAfter: .seconds(1), resource: Self.progress,
            attempt: 1)
        #expect(decision == .retryLater(.idempotencyInProgress, after: .seconds(1)))
    }

    @Test("409 idempotency_in_progress without Retry-After backs off longer with every attempt", arguments: [(1, 2), (2, 4), (3, 8), (9, 300), (20, 300)])
    func idempotencyInProgressBacksOff(attempt: Int, seconds: Int) {
        let decision = OutboxDecision.decide(
            status: 409, problem: Self.problem("idempotency_in_progress"), retryAfter: nil, resource: Self.progress,
            attempt: attempt)
        #expect(decision == .retryLater(.idempotencyInProgress, after: .seconds(seconds)))
    }

    @Test("the backoff moves by at most 20 % with jitter; Retry-After is honoured as it is")
    func jitter() {
        #expect(
            OutboxDecision.decide(status: 503, problem: nil, retryAfter: nil, resource: .profile, attempt: 1, jitter: 1)
                == .retryLater(.serverStatus(503), after: .milliseconds(2400)))
        #expect(
            OutboxDecision.decide(status: 503, problem: nil, retryAfter: nil, resource: .profile, attempt: 2, jitter: -1)
                == .retryLater(.serverStatus(503), after: .milliseconds(3200)))
        #expect(
            OutboxDecision.decide(status: 503, problem: nil, retryAfter: .seconds(7), resource: .profile, attempt: 1, jitter: 1)
                == .retryLater(.serverStatus(503), after: .seconds(7)))
        #expect(OutboxDecision.decide(error: .noConnection, attempt: 1, jitter: 5) == .halt(.offline, retryAfter: .milliseconds(2400)))
    }

    @Test("a 409 version_conflict goes to the conflict policy; another 409 is a refusal")
    func otherConflicts() {
        #expect(
            OutboxDecision.decide(status: 409, problem: Self.problem("version_conflict"), retryAfter: nil, resource: .profile, attempt: 1)
                == .resolveConflict)
        #expect(
            OutboxDecision.decide(status: 409, problem: Self.problem("already_enrolled"), retryAfter: nil, resource: .profile, attempt: 1)
                == .deadLetter(reason: "already_enrolled", unlessQueued: nil))
    }

    @Test("a 401 answer, an expired session or a refused token halts the drain and keeps the write as it was")
    func sessionGoneHalts() {
        #expect(
            OutboxDecision.decide(status: 401, problem: Self.problem("token_revoked"), retryAfter: nil, resource: .profile, attempt: 1)
                == .halt(.signedOut, retryAfter: nil))
        #expect(OutboxDecision.decide(error: .sessionExpired, attempt: 1) == .halt(.signedOut, retryAfter: nil))
        #expect(OutboxDecision.decide(error: .unauthorized(code: "other_user"), attempt: 1) == .halt(.signedOut, retryAfter: nil))
    }

    @Test("no answer halts the drain as offline and reschedules the item with backoff")
    func offlineHalts() {
        #expect(OutboxDecision.decide(error: .noConnection, attempt: 2) == .halt(.offline, retryAfter: .seconds(4)))
        #expect(OutboxDecision.decide(error: .timeout, attempt: 1) == .halt(.offline, retryAfter: .seconds(2)))
    }

    @Test("503 and 429 are retried after Retry-After, or with backoff")
    func serverBusy() {
        #expect(
            OutboxDecision.decide(status: 503, problem: nil, retryAfter: .seconds(7), resource: .profile, attempt: 1)
                == .retryLater(.serverStatus(503), after: .seconds(7)))
        #expect(
            OutboxDecision.decide(status: 429, problem: nil, retryAfter: nil, resource: .profile, attempt: 2)
                == .retryLater(.serverStatus(429), after: .seconds(4)))
    }

    @Test("403 not_enrolled on progress is a dead letter unless the course's enrollment is queued")
    func notEnrolledWaitsForTheEnrollment() {
        let problem = ProblemDetails.decode(Data(#"{"status":403,"code":"not_enrolled"}"#.utf8))
        #expect(
            OutboxDecision.decide(status: 403, problem: problem, retryAfter: nil, resource: Self.progress, attempt: 1)
                == .deadLetter(reason: "not_enrolled", unlessQueued: .enrollment(course: "course-1")))
        #expect(
            OutboxDecision.decide(status: 404, problem: ProblemDetails.decode(Data(#"{"status":404,"code":"not_found"}"#.utf8)),
                retryAfter: nil, resource: Self.progress, attempt: 1)
                == .deadLetter(reason: "not_found", unlessQueued: nil))
    }

    @Test("progress depends on its course's enrollment; nothing else has a prerequisite")
    func prerequisites() {
        #expect(ResourceKey.progress(course: "course-1", lesson: "lesson-1").prerequisite == .enrollment(course: "course-1"))
        #expect(ResourceKey.enrollment(course: "course-1").prerequisite == nil)
        #expect(ResourceKey.profile.prerequisite == nil)
    }
}
