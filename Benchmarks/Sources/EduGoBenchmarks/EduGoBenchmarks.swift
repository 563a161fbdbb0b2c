import Foundation

/// `EduGoBenchmarks sdk [--runs N] [--json FILE]`: measures the SDK's costs and prints a
/// Markdown section (and writes the raw samples as JSON when asked).
///
/// `EduGoBenchmarks drain [--runs N]` measures only the drain and the direct PUTs, and
/// `EduGoBenchmarks enqueue [--runs N]` only the outbox enqueue and the raw insert (for profiling).
@main
struct EduGoBenchmarks {
    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let mode = arguments.first, ["sdk", "drain", "enqueue"].contains(mode) else {
            FileHandle.standardError.write(Data("usage: EduGoBenchmarks sdk|drain|enqueue [--runs N] [--json FILE]\n".utf8))
            exit(1)
        }
        arguments.removeFirst()
        var runs = 5
        var jsonPath: String?
        while let flag = arguments.first {
            arguments.removeFirst()
            switch flag {
            case "--runs": runs = Int(arguments.removeFirst()) ?? runs
            case "--json": jsonPath = arguments.removeFirst()
            default: break
            }
        }

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let benchmarks = SDKBenchmarks(runs: runs, scratch: scratch)
        let server = try await BenchServer.start()

        if mode == "enqueue" {
            let (enqueue, insert) = try await benchmarks.enqueueVersusInsert(count: 2_000)
            await server.stop()
            print("enqueue \(format(enqueue.median)) ops/s, insert \(format(insert.median)) ops/s (ratio \(format(enqueue.median / insert.median)))")
            return
        }
        if mode == "drain" {
            let (drain, direct, keyed) = try await benchmarks.drainVersusDirect(server: server.url, writes: 1_000)
            await server.stop()
            print("drain \(format(drain.median)) s, direct \(format(direct.median)) s (ratio \(format(drain.median / direct.median))), direct with keys \(format(keyed.median)) s (ratio \(format(drain.median / keyed.median)))")
            return
        }
        let (enqueue, insert) = try await benchmarks.enqueueVersusInsert(count: 2_000)
        let (drain, direct, keyed) = try await benchmarks.drainVersusDirect(server: server.url, writes: 1_000)
        let cache = try await benchmarks.cacheLatency(server: server.url, iterations: 500)
        let open = try await benchmarks.coldOpen(rows: 10_000)
        await server.stop()

        let all = [enqueue, insert, drain, direct, keyed] + cache + [open]
        if let jsonPath {
            try JSONEncoder().encode(all).write(to: URL(fileURLWithPath: jsonPath))
        }
        var lines = ["| measurement | median | min – max | unit |", "|---|---:|---:|---|"]
        for measurement in all {
            lines.append("| \(measurement.name) | \(format(measurement.median)) | \(format(measurement.min)) – \(format(measurement.max)) | \(measurement.unit) |")
        }
        lines.append("")
        lines.append("| ratio | value | target |")
        lines.append("|---|---:|---|")
        lines.append("| outbox enqueue ÷ raw GRDB insert (rate) | \(format(enqueue.median / insert.median)) | ≥ 0.6 |")
        lines.append("| drain 1,000 queued ÷ 1,000 direct PUTs (time) | \(format(drain.median / direct.median)) | < 0.9 |")
        lines.append("| drain 1,000 queued ÷ 1,000 direct PUTs with Idempotency-Key (time) | \(format(drain.median / keyed.median)) | — |")
        lines.append("| memory hit ÷ network round trip (latency) | \(format(cache[0].median / cache[2].median)) | — |")
        lines.append("| disk hit ÷ network round trip (latency) | \(format(cache[1].median / cache[2].median)) | — |")
        print(lines.joined(separator: "\n"))
    }

    static func format(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }
}
