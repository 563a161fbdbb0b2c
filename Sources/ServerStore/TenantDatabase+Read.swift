import GRDB

extension TenantDatabase {
    /// Runs `value` in one read transaction on the calling thread and answers what it returns.
    ///
    /// A request's reads are a page or a row from the page cache of the operating system:
    /// handing each to a dispatch queue and back (as `writer.read` does from async code) cost
    /// more in thread wake-ups than the read itself. Readers of a WAL database never wait for
    /// the writer, so the thread is held only for the read's own work (a checkpoint or a
    /// snapshot restore can hold it for the few milliseconds they take). Long reads (exports,
    /// snapshots, media sweeps) keep the asynchronous `writer.read`.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.read(value)
    }
}
