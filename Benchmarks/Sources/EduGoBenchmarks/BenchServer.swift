import EduGoServer
import Foundation
import Hummingbird

/// An in-process EduGo server on a free loopback port, for the SDK benchmarks.
final class BenchServer: Sendable {
    let url: URL
    private let running: Task<Void, any Error>

    private init(url: URL, running: Task<Void, any Error>) {
        self.url = url
        self.running = running
    }

    /// - Parameter storage: In memory unless a benchmark needs the tenants' files.
    static func start(storage: ServerConfiguration.Storage = .inMemory) async throws -> BenchServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let configuration = ServerConfiguration(
            port: 0, storage: storage, devMode: true, logLevel: .error,
            rateLimits: RateLimits.standard.scaled(by: 1000),
            onServerRunning: { port in
                continuation.yield(port)
                continuation.finish()
            })
        let app = try await buildApplication(configuration)
        let running = Task { try await app.run() }
        var bound = 0
        for await port in ports { bound = port }
        guard let url = URL(string: "http://127.0.0.1:\(bound)") else { throw BenchError.serverDidNotStart }
        return BenchServer(url: url, running: running)
    }

    func stop() async {
        running.cancel()
        _ = try? await running.value
    }
}

enum BenchError: Error {
    case serverDidNotStart, unexpected(String)
}
