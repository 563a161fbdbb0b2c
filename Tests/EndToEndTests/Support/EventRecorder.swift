import Foundation
import Synchronization

/// Records what an async sequence delivers, so a test can wait for the next element with a time
/// limit: a missing event fails the test instead of hanging the run.
final class EventRecorder<Element: Sendable>: Sendable {
    private let state = Mutex<(received: [Element], consumed: Int)>(([], 0))
    private let listening = Mutex<Task<Void, Never>?>(nil)

    private init() {}

    /// Starts recording `sequence`; recording stops when the recorder is released.
    static func recording<S: AsyncSequence & Sendable>(_ sequence: S) -> EventRecorder where S.Element == Element {
        let recorder = EventRecorder()
        let task = Task { [weak recorder] in
            do {
                for try await element in sequence {
                    guard let recorder else { return }
                    recorder.state.withLock { $0.received.append(element) }
                }
            } catch {}
        }
        recorder.listening.withLock { $0 = task }
        return recorder
    }

    deinit {
        listening.withLock { $0?.cancel() }
    }

    /// The next element not yet returned, or `nil` when none arrives within `timeout`.
    func next(within timeout: Duration = .seconds(10)) async -> Element? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let element = state.withLock { state -> Element? in
                guard state.consumed < state.received.count else { return nil }
                defer { state.consumed += 1 }
                return state.received[state.consumed]
            }
            if let element { return element }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
