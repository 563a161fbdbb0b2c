import EduGoTesting
import Foundation

/// `EduGoBenchmarks simulate --seeds FIRST-LAST [--devices N] [--steps N] [--parallel N]
/// [--weights LIST]`: runs ``EduGoSimulation`` for every seed of the range, `--parallel` of them at
/// once (each its own in-process server), prints every failing seed's report as it ends, and a
/// summary line at the end: seeds, seeds per minute, operations per second, violations.
struct SimulationSweep {
    var seeds: ClosedRange<UInt64>
    var devices: Int
    var steps: Int
    var parallel: Int
    var weights: EduGoSimulation.Weights

    /// What a sweep found.
    struct Summary {
        var seeds = 0
        var operations = 0
        var failingSeeds: [UInt64] = []
        var violations = 0
        /// Seeds whose run threw (the server or the classroom could not start).
        var errors: [String] = []
        var seconds = 0.0

        var seedsPerMinute: Double { Double(seeds) / seconds * 60 }
        var operationsPerSecond: Double { Double(operations) / seconds }
    }

    func run(progress: @Sendable (String) -> Void) async -> Summary {
        var summary = Summary()
        let started = ContinuousClock.now
        var unlaunched = seeds.makeIterator()
        await withTaskGroup(of: Finished.self) { group in
            func launch() {
                guard let seed = unlaunched.next() else { return }
                let options = EduGoSimulation.Options(seed: seed, devices: devices, steps: steps, weights: weights)
                group.addTask {
                    do {
                        return Finished(seed: seed, outcome: .success(try await EduGoSimulation.run(options)))
                    } catch {
                        return Finished(seed: seed, outcome: .failure(error))
                    }
                }
            }
            for _ in 0..<max(1, parallel) { launch() }
            while let finished = await group.next() {
                let seed = finished.seed
                summary.seeds += 1
                switch finished.outcome {
                case .success(let report):
                    summary.operations += steps
                    if !report.violations.isEmpty {
                        summary.failingSeeds.append(seed)
                        summary.violations += report.violations.count
                        progress("\(report)")
                    }
                case .failure(let error):
                    summary.errors.append("seed \(seed): \(error)")
                    progress("seed \(seed) could not run: \(error)")
                }
                if summary.seeds % 100 == 0 {
                    let elapsed = seconds(since: started)
                    progress("\(summary.seeds) seeds in \(Int(elapsed)) s, \(summary.failingSeeds.count) failing")
                }
                launch()
            }
        }
        summary.seconds = seconds(since: started)
        return summary
    }

    /// One seed's run as it ended.
    private struct Finished: Sendable {
        var seed: UInt64
        var outcome: Result<EduGoSimulation.Report, any Error>
    }

    private func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
