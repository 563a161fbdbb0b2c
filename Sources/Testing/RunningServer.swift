import Hummingbird
import Logging
import ServiceLifecycle

/// A server application running in a task of its own, stopped by a graceful shutdown.
///
/// Cancelling the task that serves is not enough: a connection accepted in the moment the serving
/// loop is cancelled is never handed to it, and SwiftNIO traps when that connection is released
/// ("Deinited NIOAsyncWriter without calling finish()"). A graceful shutdown closes the listening
/// socket first and lets every accepted connection finish.
struct RunningServer: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(_ app: some ApplicationProtocol & Service) {
        let group = ServiceGroup(services: [app], logger: Logger(label: "edugo.testing"))
        self.group = group
        self.task = Task { try await group.run() }
    }

    /// Cancels the serving task without waiting (the last resort of a server never stopped).
    func cancel() {
        task.cancel()
    }

    /// Shuts the server down gracefully and waits until it has; after `limit` the task is
    /// cancelled instead.
    func stop(within limit: Duration = .seconds(10)) async {
        await group.triggerGracefulShutdown()
        let task = self.task
        await withTaskGroup(of: Void.self) { waiting in
            waiting.addTask { _ = try? await task.value }
            waiting.addTask {
                try? await Task.sleep(for: limit)
                task.cancel()
            }
            await waiting.next()
            waiting.cancelAll()
        }
        _ = try? await task.value
    }
}
