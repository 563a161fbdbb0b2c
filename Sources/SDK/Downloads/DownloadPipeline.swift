/// How a download moves bytes to disk: the size of each write, and how many written blocks may
/// wait for the hasher (the bound on a download's buffers: `(blocksInFlight + 1) × blockSize`).
struct DownloadPipeline: Sendable, Equatable {
    /// Bytes gathered before each `write`.
    var blockSize = 2 << 20
    /// Written blocks that may wait for the hasher before the writer waits.
    var blocksInFlight = 4
}
