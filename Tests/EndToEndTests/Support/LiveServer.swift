import EduGoServer
import Foundation
import Hummingbird

/// An `EduGoServer` running in this process on a real socket, that a test can stop and start
/// again on the same port (and, with a data directory, the same data).
actor LiveServer {
    private var configuration: ServerConfiguration
    private var running: Task<Void, any Error>?
    private(set) var port: Int = 0

    init(_ configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL {
        get throws {
            guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw LiveServerError.notStarted }
            return url
        }
    }

    /// Starts the server; the first start picks a free port, later starts reuse it.
    func start() async throws {
        guard running == nil else { return }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var configuration = self.configuration
        configuration.port = port
        configuration.onServerRunning = { port in
            continuation.yield(port)
            continuation.finish()
        }
        let app = try await buildApplication(configuration)
        running = Task { try await app.run() }
        let bound = try await withThrowingTaskGroup(of: Int?.self) { group in
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
        guard let bound else {
            await stop()
            throw LiveServerError.didNotStart
        }
        port = bound
    }

    /// Stops the server and waits until its socket and databases are closed.
    func stop() async {
        guard let running else { return }
        running.cancel()
        _ = try? await running.value
        self.running = nil
    }

    /// Starts a server for the duration of `body`, stopping it afterwards whatever happens.
    static func with<Value: Sendable>(
        _ configuration: ServerConfiguration, _ body: (LiveServer) async throws -> Value
    ) async throws -> Value {
        let server = LiveServer(configuration)
        try await server.start()
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }
}

enum LiveServerError: Error {
    case notStarted, didNotStart
}
