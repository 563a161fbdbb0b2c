import Foundation
import GRDB

/// The values of a local read, now and after every change to what it read: an `AsyncSequence`
/// that starts observing the store when it is iterated and stops when the iteration ends.
///
/// ```swift
/// for try await snapshot in session.profile.observe() {
///     show(snapshot?.value, syncing: snapshot?.hasPendingWrites ?? false)
/// }
/// ```
///
/// Equal consecutive values are delivered once.
public struct LocalObservation<Element: Sendable>: AsyncSequence, Sendable {
    private let values: AsyncValueObservation<Element>

    init(_ values: AsyncValueObservation<Element>) {
        self.values = values
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: values.makeAsyncIterator())
    }

    /// Gives the next value once the store changed; `nil` when iteration was cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncValueObservation<Element>.Iterator

        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}
