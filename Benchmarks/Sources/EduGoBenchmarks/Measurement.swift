import Foundation

/// Repeated measurements of one figure: the median with min and max.
struct Measurement: Codable {
    var name: String
    var unit: String
    var samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    var min: Double { samples.min() ?? .nan }
    var max: Double { samples.max() ?? .nan }
}

/// Seconds taken by `body`.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Runs `measure` `runs` times and collects the samples.
func repeated(_ name: String, unit: String, runs: Int, _ measure: () async throws -> Double) async rethrows -> Measurement {
    var samples: [Double] = []
    for _ in 0..<runs { samples.append(try await measure()) }
    return Measurement(name: name, unit: unit, samples: samples)
}
