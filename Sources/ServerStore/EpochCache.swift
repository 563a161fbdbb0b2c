import EduGoGuarded

/// Values kept while the data they were read from stands: the one shape of a tenant's in-memory
/// caches (``LiveSessionCache``, ``ListTotals``, and the server's list pages).
///
/// The tenant's ``CommitObserver`` calls ``invalidate()`` when a transaction that changed what a
/// cache depends on commits, before the write returns to its caller; a restore calls it too. A
/// value read before such a commit can never be kept after it: a miss hands out the cache's epoch,
/// every invalidation moves the epoch on, and ``store(_:for:readAt:)`` keeps a value only while
/// the epoch it was read under is current. (Take the epoch before the read's snapshot: a commit
/// moves it only once it is visible, so a value stored under the current epoch was read after the
/// last invalidating commit.)
///
/// Bounded: past `capacity` values, or `costCapacity` in their summed `cost`, it starts again empty.
package final class EpochCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What ``lookup(_:)`` found.
    package enum Lookup: Sendable {
        case hit(Value)
        /// Not cached: read, then offer the value with this epoch.
        case miss(epoch: UInt64)
    }

    private struct State {
        var epoch: UInt64 = 0
        var values: [Key: Value] = [:]
        var cost = 0
    }

    private let state = Guarded(State())
    private let capacity: Int
    private let costCapacity: Int
    private let cost: @Sendable (Value) -> Int

    /// - Parameters:
    ///   - capacity: The most values kept; 0 keeps none.
    ///   - costCapacity: The most summed `cost` kept.
    ///   - cost: A value's weight against `costCapacity` (its bytes, say).
    package init(capacity: Int, costCapacity: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.capacity = capacity
        self.costCapacity = costCapacity
        self.cost = cost
    }

    /// The current epoch, for a reader that looks up inside its own read transaction
    /// (``value(for:readAt:)``): take it before the transaction begins.
    package var epoch: UInt64 { state.withLock { $0.epoch } }

    /// The value for `key`, or a miss with the epoch to store the value read under.
    package func lookup(_ key: Key) -> Lookup {
        state.withLock { state in
            if let value = state.values[key] { return .hit(value) }
            return .miss(epoch: state.epoch)
        }
    }

    /// The value for `key`, if one is kept and nothing was invalidated since `epoch` (a reader
    /// whose snapshot began under an older epoch may see data a newer value does not describe).
    package func value(for key: Key, readAt epoch: UInt64) -> Value? {
        state.withLock { state in state.epoch == epoch ? state.values[key] : nil }
    }

    /// Keeps `value` for `key` unless the cache was invalidated since `epoch` was handed out.
    package func store(_ value: Value, for key: Key, readAt epoch: UInt64) {
        let weight = cost(value)
        state.withLock { state in
            guard state.epoch == epoch, capacity > 0 else { return }
            if let replaced = state.values.removeValue(forKey: key) { state.cost -= cost(replaced) }
            if state.values.count >= capacity || state.cost + weight > costCapacity {
                state.values.removeAll(keepingCapacity: true)
                state.cost = 0
            }
            state.values[key] = value
            state.cost += weight
        }
    }

    /// Forgets every value and moves the epoch on.
    package func invalidate() {
        state.withLock { state in
            state.epoch &+= 1
            state.values.removeAll(keepingCapacity: true)
            state.cost = 0
        }
    }
}
