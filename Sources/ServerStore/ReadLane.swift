/// Where a heavy request's database reads run: threads of a lower priority than the requests
/// around it (the server's background lane), not GRDB's queues.
///
/// A ``TenantDatabase`` read started by a task that has a lane (``current``) runs on one of the
/// lane's threads, which waits there for a reader; any other read suspends its task while GRDB
/// reads on its own queues (see `TenantDatabase+Read.swift`).
package protocol ReadLane: Sendable {
    /// Runs `work` on one of the lane's threads and answers what it returned.
    func perform<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T
}

/// The lane of the running task's reads, if its request is heavy.
package enum ReadPlacement {
    @TaskLocal package static var lane: (any ReadLane)?
}
