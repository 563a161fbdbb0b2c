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
    ///
    /// A heavy request's read (one whose task has a ``ReadPlacement/lane``) runs on one of the
    /// lane's threads instead, so its SQLite work runs at the lane's lower priority and the
    /// lane's thread count bounds how many such reads run at once.
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let lane = ReadPlacement.lane {
            let writer = self.writer
            return try await lane.perform { try Self.readOnThisThread(writer, value) }
        }
        return try await writer.read(value)
    }

    /// GRDB's synchronous read: waits for a reader on the calling thread.
    private static func readOnThisThread<T>(_ writer: any DatabaseWriter, _ value: (Database) throws -> T) throws -> T {
        try writer.read(value)
    }
}
