/// How a download moves bytes to disk: the size of each write, and how many received blocks may
/// wait for the task that writes and hashes them (the bound on a download's buffers:
/// `(blocksInFlight + 1) × blockSize`, and one more block of aligned memory for direct writes).
struct DownloadPipeline: Sendable, Equatable {
    /// Bytes gathered before each `write`. 1 MiB: on Linux 6.18 (a VM) 2 MiB `write`s into the page
    /// cache stalled in 6 of 8 runs (580–900 ms for 256 MiB), 1 MiB and 512 KiB ones never (80–146 ms).
    var blockSize = 1 << 20
    /// Received blocks that may wait to be written and hashed before receiving waits.
    var blocksInFlight = 4
}
