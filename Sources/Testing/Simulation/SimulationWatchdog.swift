import Foundation

/// Names a simulation step that runs past its deadline, on standard error, with the steps before
/// it, while it still runs: a hung step would otherwise hold the run without a word.
actor SimulationWatchdog {
    let seed: UInt64
    let deadline: Duration
    private var step = -1
    private var kind = ""
    private var started = ContinuousClock.now
    private var log: [String] = []
    /// How long the step under way had run when the watchdog found it past the deadline.
    private var stalledFor: Duration?

    init(seed: UInt64, deadline: Duration) {
        self.seed = seed
        self.deadline = deadline
    }

    /// Step `step`, an operation of `kind`, starts; `log` holds the steps before it.
    func begin(_ step: Int, kind: String, log: [String]) {
        self.step = step
        self.kind = kind
        self.log = log
        started = .now
        stalledFor = nil
    }

    /// How long the step under way ran past the deadline, if it did.
    func stalled() -> Duration? {
        stalledFor
    }

    /// Looks at the step under way every second until cancelled.
    func watch() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let elapsed = ContinuousClock.now - started
            guard step >= 0, stalledFor == nil, elapsed > deadline else { continue }
            stalledFor = elapsed
            let report = "simulation seed \(seed) stalled at step \(step), \(kind) (\(elapsed)); the steps before it:\n"
                + log.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
            FileHandle.standardError.write(Data((report + "\n").utf8))
        }
    }
}
