import EduGoServerStore
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads of lower scheduling priority that do the synchronous work of heavy requests
/// (``RequestCost``): their database reads and the encoding of their answers. A cheap request
/// then never waits for a core behind them.
///
/// Hummingbird runs every handler on Swift's cooperative pool, which has as many threads as
/// cores, and GRDB reads on its own queues at normal priority. Eight clients asking for wide
/// searches, base-sync pages and snapshot saves kept both cores of a two-core machine busy, and
/// every `GET /health` queued behind them. A heavy request's reads (``ReadPlacement``) and its
/// answer's encoding run here instead. There is one thread fewer than cores (at least one), so
/// heavy work never holds every core, and the kernel runs it at a lower priority (nice 10 on
/// Linux, utility QoS on Apple platforms), so a cheap request that wakes up takes a core from it
/// at once. Heavy work makes progress whenever cheap requests leave a core idle, and waits here
/// for the work before it, in order.
///
/// Only synchronous closures run here, never a task: an actor that a heavy request calls runs
/// where actors run, so no actor's work waits for this lane's low priority.
final class BackgroundLane: ReadLane, Sendable {
    /// The process's lane, shared by every server the process runs; its threads live as long as
    /// the process.
    static let shared: BackgroundLane = {
        let lane = BackgroundLane(threads: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
        lane.startThreads()
        return lane
    }()

    /// How many threads do the lane's work.
    let threadCount: Int
    private let jobs = Mutex(JobQueue())
    private let waiting = DispatchSemaphore(value: 0)

    private init(threads: Int) {
        threadCount = threads
    }

    /// Whether the calling thread is one of a lane's.
    static var isCurrentThread: Bool {
        pthread_getspecific(threadMark) != nil
    }

    func perform<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            jobs.withLock { $0.append { continuation.resume(with: Result { try work() }) } }
            waiting.signal()
        }
    }

    private func startThreads() {
        for index in 0..<threadCount {
            let thread = Thread { [self] in
                Self.lowerPriority()
                pthread_setspecific(Self.threadMark, UnsafeRawPointer(bitPattern: 1))
                while true {
                    waiting.wait()
                    jobs.withLock { $0.removeFirst() }?()
                }
            }
            thread.name = "edugo-background-\(index)"
            #if canImport(Darwin)
            thread.qualityOfService = .utility
            #endif
            thread.start()
        }
    }

    private static let threadMark: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Lowers the calling thread's priority. Linux keeps a nice value per thread, and `setpriority`
    /// with id 0 sets the calling thread's (setpriority(2), "Bugs").
    private static func lowerPriority() {
        #if canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }

    /// The lane's work, first in, first out.
    private struct JobQueue: ~Copyable {
        typealias Job = @Sendable () -> Void
        private var items: [Job] = []
        private var head = 0

        mutating func append(_ job: @escaping Job) {
            items.append(job)
        }

        mutating func removeFirst() -> Job? {
            guard head < items.count else { return nil }
            let job = items[head]
            head += 1
            // Drop the done part once it is most of the array (amortised O(1)).
            if head >= 64, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}
