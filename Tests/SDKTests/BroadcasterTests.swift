import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// One broadcaster type for states (sync status, connectivity) and events (session events).
@Suite(.timeLimit(.minutes(1))) struct BroadcasterTests {
    /// The first `count` values of a stream.
    private func first(_ count: Int, of stream: AsyncStream<Int>) async -> [Int] {
        var values: [Int] = []
        for await value in stream {
            values.append(value)
            if values.count == count { break }
        }
        return values
    }

    @Test("a state broadcaster starts each stream with its current value and publishes only changes")
    func statePublishesChanges() async {
        let state = Broadcaster(1)
        let stream = state.subscribe()
        state.update { $0 = 1 }  // unchanged: not published
        state.update { $0 = 2 }
        state.update { $0 += 1 }
        #expect(await first(3, of: stream) == [1, 2, 3])
        #expect(state.current == 3)
        let late = state.subscribe()
        #expect(await first(1, of: late) == [3])
    }

    @Test("an event broadcaster replays nothing, publishes every event, even a repeated one, and has no state to update")
    func eventsAreNotReplayed() async {
        let events = Broadcaster<Int>()
        events.emit(1)  // nobody listens yet: lost, not replayed
        let stream = events.subscribe()
        events.update { $0 = 7 }  // no state: nothing happens
        events.emit(2)
        events.emit(2)
        events.emit(3)
        #expect(await first(3, of: stream) == [2, 2, 3])
        #expect(events.current == nil)
    }
}
