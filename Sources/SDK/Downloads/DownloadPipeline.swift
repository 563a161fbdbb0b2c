/// How a download moves bytes to disk: the size of each write, and how many written blocks may
/// wait for the hasher (the bound on a download's buffers: `(blocksInFlight + 1) × blockSize`).
struct DownloadPipeline: Sendable, Equatable {
    /// Bytes gathered before each `write`. 1 MiB: on Linux 6.18 (a VM) 2 MiB `write`s into the page
    /// cache stalled in 6 of 8 runs (580–900 ms for 256 MiB), 1 MiB and 512 KiB ones never (80–146 ms).
    var blockSize = 1 << 20
    /// Written blocks that may wait for the hasher before the writer waits.
    var blocksInFlight = 4
}
