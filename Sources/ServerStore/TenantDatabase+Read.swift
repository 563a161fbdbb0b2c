import GRDB

extension TenantDatabase {
    /// Runs `value` in one read transaction and answers what it returns, suspending (never
    /// blocking the calling thread) while it waits for a reader.
    ///
    /// A request runs on Swift's cooperative pool, which has as many threads as cores. GRDB's
    /// synchronous `read` waits on the calling thread: for one of the pool's four readers, for
    /// SQLite's busy handler, and, on an in-memory database (one serial queue for reads and
    /// writes), for every write queued before it. Two such waits at once stalled every task of
    /// the process on a two-core machine. GRDB's asynchronous `read` waits on its own queues and
    /// resumes the task when the read is done.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.read(value)
    }
}
