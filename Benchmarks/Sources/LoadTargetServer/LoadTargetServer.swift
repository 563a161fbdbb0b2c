import BenchSupport
import EduGoServer
import Foundation
import Hummingbird
import Logging

/// `edugo-server` as the load tests run it: release build, its text log lines, data in a temporary directory, rate
/// limits scaled up (a load generator is one address), room for a thousand live streams of one
/// user. With `--page-cache 0` it keeps no list pages in memory, so every list is read from
/// SQLite. Prints `BENCH_PORT=<port>`.
@main
struct LoadTargetServer {
    static func main() throws {
        try BlockingMain.run(serve)
    }

    static func serve() async throws {
        // edugo-server's default text log lines, as `edugo-server --log-level error` writes them.
        LoggingSystem.bootstrap { label in LogFormat.text.handler(label: label, level: .error) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-load-\(UUID().uuidString)")
        var configuration = ServerConfiguration(
            port: 0, storage: .directory(directory), devMode: true, logLevel: .error,
            rateLimits: RateLimits.standard.scaled(by: 1_000_000),
            onServerRunning: { port in
                print("BENCH_PORT=\(port)")
                fflush(nil)
            })
        // Benchmarks/live holds 1,000 streams as one user, over as many connections.
        configuration.events.maxStreamsPerUser = 2_000
        configuration.connections.maxConnections = 4_096
        let arguments = CommandLine.arguments
        if let flag = arguments.firstIndex(of: "--page-cache"), flag + 1 < arguments.count, let pages = Int(arguments[flag + 1]) {
            configuration.pageCacheCapacity = pages
        }
        let app = try await buildApplication(configuration)
        try await app.runService()
    }
}
