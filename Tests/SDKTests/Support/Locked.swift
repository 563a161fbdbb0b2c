import Synchronization

/// A `Mutex` in a class, so escaping closures (stub responders, reporters) can share state.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }

    var value: Value { withLock { $0 } }
}
