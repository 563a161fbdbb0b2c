import EduGoGuarded

/// Fans values out to every subscriber, each ``subscribe()`` getting its own stream.
///
/// Made with a current value (``init(_:)``), it holds a state: a new stream starts with the
/// current value and ``update(_:)`` publishes only changes (sync status, connectivity). Made without
/// one (``init()``), it passes events on: ``emit(_:)`` publishes every value and a new stream
/// starts empty (session events).
final class Broadcaster<Value: Sendable>: Sendable {
    private struct State {
        var current: Value?
        var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
        var observers: [Int: @Sendable (Value) -> Bool] = [:]
        var nextID = 0
    }

    private let state: Guarded<State>
    private let buffered: Int

    /// A state broadcaster starting at `initial`; each stream keeps the newest 16 values.
    init(_ initial: Value) {
        state = Guarded(State(current: initial))
        buffered = 16
    }

    /// An event broadcaster; each stream keeps the newest 32 events.
    init() {
        state = Guarded(State(current: nil))
        buffered = 32
    }

    /// The current value of a state broadcaster (`nil` for an event broadcaster).
    var current: Value? { state.withLock { $0.current } }

    func subscribe() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(buffered))
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            if let current = state.current { continuation.yield(current) }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Publishes `event` to every stream (an event broadcaster's way to publish).
    func emit(_ event: Value) {
        let (targets, observers) = state.withLock { (Array($0.continuations.values), $0.observers) }
        for continuation in targets { continuation.yield(event) }
        for (id, observer) in observers where !observer(event) {
            _ = state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    /// Calls `observer` with every event ``emit(_:)`` publishes from now on, synchronously, before
    /// `emit` returns (no task in between: what it changes is changed when the emitter goes on),
    /// until it returns `false`.
    func observe(_ observer: @escaping @Sendable (Value) -> Bool) {
        state.withLock { state in
            state.nextID += 1
            state.observers[state.nextID] = observer
        }
    }

    /// Applies `change` to a state broadcaster's value and publishes the result when it differs,
    /// and returns what `change` returned (read and changed under one lock: nothing comes between).
    /// An event broadcaster has no value to change: nothing happens, and the answer is `nil`.
    @discardableResult
    func update<Outcome>(_ change: (inout Value) -> Outcome) -> Outcome? where Value: Equatable {
        let (outcome, value, targets) = state.withLock { state -> (Outcome?, Value?, [AsyncStream<Value>.Continuation]) in
            guard var value = state.current else { return (nil, nil, []) }
            let before = value
            let outcome = change(&value)
            state.current = value
            return (outcome, value, value == before ? [] : Array(state.continuations.values))
        }
        if let value {
            for continuation in targets { continuation.yield(value) }
        }
        return outcome
    }
}
