import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The drain's bookkeeping without I/O: outcomes in, the next step and the report out.
@Suite(.timeLimit(.minutes(1))) struct DrainStateMachineTests {
    static let profile = ResourceKey.profile
    static let enrollment = ResourceKey.enrollment(course: "course-2")

    static func item(_ id: Int64, _ resource: ResourceKey) -> OutboxItem {
        OutboxItem(
            id: id, resource: resource, operation: .update, method: "PATCH", path: "/v1/users/me", body: nil, baseVersion: 1,
            baseJson: nil, idempotencyKey: "key-\(id)", createdAt: Date(timeIntervalSince1970: 0), attempts: 0,
            nextAttemptAt: nil, lastError: nil)
    }

    @Test("a round that moved items is followed by another; one that moved none ends the drain")
    func roundsGoOnWhileItemsMove() {
        var machine = DrainStateMachine()
        machine.roundStarted()
        #expect(machine.queueFinished(Self.profile, items: [Self.item(1, Self.profile)], outcomes: [.sent]) == .goOn)
        #expect(machine.roundFinished() == .goOn)
        #expect(machine.state == .betweenRounds)
        machine.roundStarted()
        #expect(machine.queueFinished(Self.profile, items: [Self.item(2, Self.profile)], outcomes: [.retryLater(.serverStatus(503))]) == .goOn)
        #expect(machine.roundFinished() == .stop)
        #expect(machine.state == .finished)
        #expect(machine.report.sent == 1)
        #expect(machine.lastError == .serverStatus(503))
    }

    @Test("a resource told to retry later sits out the rest of the drain; the others go on")
    func retryLaterBenchesItsResource() {
        var machine = DrainStateMachine()
        machine.roundStarted()
        #expect(machine.queueFinished(Self.profile, items: [Self.item(1, Self.profile)], outcomes: [.retryLater(.idempotencyInProgress)]) == .goOn)
        #expect(machine.queueFinished(Self.enrollment, items: [Self.item(2, Self.enrollment)], outcomes: [.deadLettered]) == .goOn)
        #expect(machine.waiting == [Self.profile])
        #expect(machine.report.deadLettered == 1)
    }

    @Test("a halt stops the drain at once; queues already in flight are still counted, and the first halt's error stays")
    func haltStops() {
        var machine = DrainStateMachine()
        machine.roundStarted()
        #expect(machine.queueFinished(Self.profile, items: [Self.item(1, Self.profile)], outcomes: [.sent]) == .goOn)
        #expect(machine.queueFinished(Self.enrollment, items: [Self.item(2, Self.enrollment)], outcomes: [.halt(.signedOut)]) == .stop)
        #expect(machine.state == .finished)
        // A queue that was on the wire when the halt came in finishes: what it sent is reported.
        let course = ResourceKey.progress(course: "course-1", lesson: "lesson-1")
        #expect(machine.queueFinished(course, items: [Self.item(3, course)], outcomes: [.sent]) == .stop)
        #expect(machine.queueFinished(course, items: [Self.item(4, course)], outcomes: [.halt(.offline)]) == .stop)
        #expect(machine.lastError == .signedOut)
        #expect(machine.report.sent == 2)
        #expect(machine.roundFinished() == .stop)
    }

    @Test("an item resent after conflicts three times in one drain is exhausted: the next conflict parks it")
    func resendsAreCounted() {
        var machine = DrainStateMachine()
        for round in 1...OutboxDecision.conflictResendLimit {
            machine.roundStarted()
            _ = machine.queueFinished(Self.profile, items: [Self.item(7, Self.profile)], outcomes: [.resend])
            #expect(machine.resendsExhausted.contains(7) == (round == OutboxDecision.conflictResendLimit))
            #expect(machine.roundFinished() == .goOn)
        }
    }

    @Test("outcomes cover only the items processed: the rest of a paused resource is not counted")
    func fewerOutcomesThanItems() {
        var machine = DrainStateMachine()
        machine.roundStarted()
        _ = machine.queueFinished(
            Self.profile, items: [Self.item(1, Self.profile), Self.item(2, Self.profile), Self.item(3, Self.profile)],
            outcomes: [.sent, .waitsForPrerequisite])
        #expect(machine.report.sent == 1)
        #expect(machine.roundFinished() == .goOn)
    }

    @Test("cancelling ends the drain with the cancelled error")
    func cancelling() {
        var machine = DrainStateMachine()
        machine.roundStarted()
        machine.cancelled()
        #expect(machine.state == .finished)
        #expect(machine.lastError == .cancelled)
    }
}
