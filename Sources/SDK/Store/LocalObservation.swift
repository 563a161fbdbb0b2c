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

    /// Starts observing the store: `for try await` calls it for you. The observation lasts as long
    /// as the iteration.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: values.makeAsyncIterator())
    }

    /// Gives the next value once the store changed; `nil` when iteration was cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncValueObservation<Element>.Iterator

        /// Waits for the next value: first the current one, then one after each change that alters it.
        ///
        /// - Returns: the value, or `nil` once the iterating task is cancelled.
        /// - Throws: the database error when the store cannot be read.
        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}
