import EduGoServer
import Foundation
import Hummingbird

/// An `EduGoServer` listening on an ephemeral loopback port in this process, for the duration of
/// one test: `with(_:_:)` starts it, hands over its base URL, and stops it whatever happens.
enum LiveContractServer {
    /// The configuration every contract test starts from: in memory, dev mode, seeded demo
    /// tenants, cheap bcrypt, quiet logs.
    static func configuration() -> ServerConfiguration {
        ServerConfiguration(
            port: 0, storage: .inMemory, devMode: true, seedDemoData: true, logLevel: .critical,
            passwordHashCost: 4)
    }

    /// Runs `body` against a server built from `configuration`, then cancels the server's task
    /// and waits until it has shut down.
    static func with<Value: Sendable>(
        _ configuration: ServerConfiguration = configuration(),
        _ body: (URL) async throws -> Value
    ) async throws -> Value {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var configuration = configuration
        configuration.port = 0
        configuration.onServerRunning = { port in
            continuation.yield(port)
            continuation.finish()
        }
        let app = try await buildApplication(configuration)
        let running = Task { try await app.run() }
        do {
            let port = try await firstPort(from: ports)
            guard let baseURL = URL(string: "http://127.0.0.1:\(port)") else { throw LiveContractServerError.didNotStart }
            let value = try await body(baseURL)
            await stop(running)
            return value
        } catch {
            await stop(running)
            throw error
        }
    }

    private static func firstPort(from ports: AsyncStream<Int>) async throws -> Int {
        let port = try await withThrowingTaskGroup(of: Int?.self) { group in
            group.addTask {
                for await port in ports { return port }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let port else { throw LiveContractServerError.didNotStart }
        return port
    }

    private static func stop(_ running: Task<Void, any Error>) async {
        running.cancel()
        _ = try? await running.value
    }
}

enum LiveContractServerError: Error {
    case didNotStart
}
