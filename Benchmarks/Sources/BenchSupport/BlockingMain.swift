import Dispatch
import Synchronization

/// Runs an async entry point from a synchronous `main`, parking the main thread on a semaphore.
///
/// An `async` `main` ends in `dispatch_main()`, which waits in `sigsuspend` on a mask held in
/// read-only memory; valgrind (3.19 through 3.27) writes to that mask and stops with an internal
/// SIGSEGV. `Benchmarks/instructions` runs the load servers under callgrind, so they start here.
public enum BlockingMain {
    public static func run(_ body: @escaping @Sendable () async throws -> Void) throws {
        let finished = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        Task {
            do { try await body() } catch { failure.withLock { $0 = error } }
            finished.signal()
        }
        finished.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
