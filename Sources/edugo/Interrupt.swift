import Foundation
import Synchronization

/// Set by the SIGINT/SIGTERM handler that ``Interrupt/install()`` installs.
private let received = Atomic<Bool>(false)

/// Ctrl-C (SIGINT) and SIGTERM for a command that runs until interrupted and then ends cleanly
/// (exit 0) instead of being killed by the signal.
enum Interrupt {
    /// From now on SIGINT and SIGTERM no longer end the process; ``wait()`` returns instead.
    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in received.store(true, ordering: .relaxed) }
        }
    }

    /// Returns once SIGINT or SIGTERM arrived after ``install()`` (checked every 50 ms), or when
    /// the task is cancelled.
    static func wait() async {
        while !received.load(ordering: .relaxed) {
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                return
            }
        }
    }
}
