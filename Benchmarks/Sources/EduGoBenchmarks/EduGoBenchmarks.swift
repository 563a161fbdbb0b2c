import EduGoTesting
import Foundation

/// `EduGoBenchmarks sdk [--runs N] [--json FILE]`: measures the SDK's costs and prints a
/// Markdown section (and writes the raw samples as JSON when asked).
///
/// `EduGoBenchmarks drain [--runs N]` measures only the drain and the direct PUTs, and
/// `EduGoBenchmarks enqueue [--runs N]` only the outbox enqueue and the raw insert (for profiling).
/// `EduGoBenchmarks sync [--runs N]` measures catching up through the change feed.
/// `EduGoBenchmarks live --url URL [--writes N]` measures propagation through the live stream
/// against a running server (`Benchmarks/live` starts one and measures the server's side).
/// `EduGoBenchmarks devstate [--runs N]` measures a test's setup through `EduGoTesting` and
/// tenant snapshots (``DevStateBenchmarks``).
/// `EduGoBenchmarks simulate --seeds 1-10000 [--devices 10] [--steps 100] [--parallel 4]
/// [--weights restore=0]` sweeps seeded classrooms (``SimulationSweep``); it exits 1 when a seed fails.
@main
struct EduGoBenchmarks {
    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let mode = arguments.first, ["sdk", "drain", "enqueue", "sync", "live", "devstate", "feed", "simulate"].contains(mode) else {
            FileHandle.standardError.write(Data("usage: EduGoBenchmarks sdk|drain|enqueue|sync|live|devstate|feed|simulate [--runs N] [--json FILE] [--url URL --writes N] [--seeds A-B --devices N --steps N --parallel N --weights LIST]\n".utf8))
            exit(1)
        }
        arguments.removeFirst()
        var runs = 5
        var jsonPath: String?
        var url: URL?
        var writes = 200
        var sweep = SimulationSweep(seeds: 1...100, devices: 10, steps: 100, parallel: 4, weights: .init())
        while let flag = arguments.first {
            arguments.removeFirst()
            switch flag {
            case "--runs": runs = Int(arguments.removeFirst()) ?? runs
            case "--json": jsonPath = arguments.removeFirst()
            case "--url": url = URL(string: arguments.removeFirst())
            case "--writes": writes = Int(arguments.removeFirst()) ?? writes
            case "--seeds":
                let bounds = arguments.removeFirst().split(separator: "-").compactMap { UInt64($0) }
                if let first = bounds.first, let last = bounds.last, first <= last { sweep.seeds = first...last }
            case "--devices": sweep.devices = Int(arguments.removeFirst()) ?? sweep.devices
            case "--steps": sweep.steps = Int(arguments.removeFirst()) ?? sweep.steps
            case "--parallel": sweep.parallel = Int(arguments.removeFirst()) ?? sweep.parallel
            case "--weights": sweep.weights = try EduGoSimulation.Weights(parsing: arguments.removeFirst())
            default: break
            }
        }

        if mode == "simulate" {
            // Unbuffered, even into a file or a pipe: a long sweep shows how far it got as it goes.
            let say: @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
            let summary = await sweep.run(progress: say)
            say("SWEEP seeds \(sweep.seeds.lowerBound)-\(sweep.seeds.upperBound), \(sweep.devices) devices x \(sweep.steps) steps, "
                + "\(sweep.parallel) at once: \(summary.seeds) seeds in \(format(summary.seconds)) s, "
                + "\(format(summary.seedsPerMinute)) seeds/min, \(format(summary.operationsPerSecond)) operations/s, "
                + "\(summary.violations) violations in \(summary.failingSeeds.count) seeds \(summary.failingSeeds), \(summary.errors.count) errors")
            if !summary.failingSeeds.isEmpty || !summary.errors.isEmpty { exit(1) }
            return
        }

        if mode == "devstate" {
            print(try await DevStateBenchmarks(runs: runs).run())
            return
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        if mode == "feed" {
            let feed = try await FeedCostBenchmarks(runs: runs, scratch: scratch).run()
            print([
                "| measurement | median | min – max | unit |",
                "|---|---:|---:|---|",
                "| \(feed.oldest.name) | \(format(feed.oldest.median)) | \(format(feed.oldest.min)) – \(format(feed.oldest.max)) | ms |",
                "| \(feed.recent.name) | \(format(feed.recent.median)) | \(format(feed.recent.min)) – \(format(feed.recent.max)) | ms |",
                "",
                "| ratio | value | target |",
                "|---|---:|---|",
                "| oldest cursor ÷ recent cursor (one pull, median) | \(format(feed.oldest.median / feed.recent.median)) | ≤ 5 |",
                "| requests to catch up from the oldest cursor | \(feed.catchUpRequests) | — |",
            ].joined(separator: "\n"))
            return
        }
        if mode == "live" {
            guard let url else { throw BenchError.unexpected("live needs --url") }
            let latencies = try await LiveBenchmarks(scratch: scratch).propagation(server: url, writes: writes).sorted()
            let p50 = latencies[latencies.count / 2]
            let p99 = latencies[min(latencies.count - 1, Int((Double(latencies.count) * 0.99).rounded(.up)) - 1)]
            print("PROPAGATION \(writes) \(format(p50)) \(format(p99)) \(format(latencies.last ?? .nan))")
            return
        }
        let benchmarks = SDKBenchmarks(runs: runs, scratch: scratch)
        let server = try await BenchServer.start()

        if mode == "sync" {
            let sync = SyncBenchmarks(runs: runs, scratch: scratch)
            let catchUp = try await sync.catchUp(server: server.url, courses: 300)
            let (pull, changes) = try await sync.pullAndApply(server: server.url, lessons: 10_000)
            let (base, paging) = try await sync.baseSyncVersusPaging(server: server.url, courses: 10_000, lessonsPerCourse: 3)
            await server.stop()
            print(syncTable(catchUp, pull: pull, changes: changes, base: base, paging: paging))
            return
        }
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

    static func syncTable(
        _ catchUp: SyncBenchmarks.CatchUp, pull: Measurement, changes: Int, base: Measurement, paging: Measurement
    ) -> String {
        func kilobytes(_ bytes: Int) -> String { format(Double(bytes) / 1024) + " KB" }
        return [
            "| 300-course catalogue, six changes | requests | bytes |",
            "|---|---:|---:|",
            "| first fill (base sync) | \(catchUp.fillRequests) | \(kilobytes(catchUp.fillBytes)) |",
            "| catch-up by pull | \(catchUp.pullRequests) | \(kilobytes(catchUp.pullBytes)) |",
            "| catch-up by re-reading the course list (before the feed) | \(catchUp.listRequests) | \(kilobytes(catchUp.listBytes)) |",
            "",
            "| measurement | median | min – max | unit |",
            "|---|---:|---:|---|",
            "| \(pull.name) (\(changes) changes) | \(format(pull.median)) | \(format(pull.min)) – \(format(pull.max)) | \(pull.unit) |",
            "| \(base.name) | \(format(base.median)) | \(format(base.min)) – \(format(base.max)) | \(base.unit) |",
            "| \(paging.name) | \(format(paging.median)) | \(format(paging.min)) – \(format(paging.max)) | \(paging.unit) |",
            "",
            "| ratio | value | target |",
            "|---|---:|---|",
            "| catch-up bytes ÷ first fill bytes | \(format(Double(catchUp.pullBytes) / Double(max(1, catchUp.fillBytes)))) | ≤ 0.1 |",
            "| catch-up requests | \(catchUp.pullRequests) | ≤ 2 |",
            "| seconds to pull and apply 10,000 changes | \(format(pull.median * 10_000 / Double(max(1, changes)))) | ≤ 1 |",
            "| base sync ÷ paging the list endpoints (time) | \(format(base.median / paging.median)) | ≤ 1 |",
        ].joined(separator: "\n")
    }

    static func format(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }
}
