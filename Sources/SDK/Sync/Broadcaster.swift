import Synchronization

/// Fans values out to every subscriber; each ``subscribe()`` gets its own stream that starts
/// with the current value.
final class Broadcaster<Value: Sendable>: Sendable {
    private struct State {
        var current: Value
        var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
    }

    private let state: Mutex<State>

    init(_ initial: Value) {
        state = Mutex(State(current: initial))
    }

    var value: Value { state.withLock { $0.current } }

    func subscribe() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            continuation.yield(state.current)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Applies `change` and publishes the result when it differs.
    func update(_ change: (inout Value) -> Void) where Value: Equatable {
        let (value, targets) = state.withLock { state -> (Value, [AsyncStream<Value>.Continuation]) in
            let before = state.current
            change(&state.current)
            return (state.current, state.current == before ? [] : Array(state.continuations.values))
        }
        for continuation in targets { continuation.yield(value) }
    }
}
