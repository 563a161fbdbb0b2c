import Foundation

/// A response body's way to its partial file: the transport's small chunks are gathered into blocks
/// of ``DownloadPipeline/blockSize`` and handed on, in order, through a bounded ``BlockHandOff`` to
/// the task that writes and hashes them (``PartialFileWriter``). Receiving never waits for the disk,
/// only for room in the hand-off.
struct BlockGatherer {
    private let handOff: BlockHandOff
    private let blockSize: Int
    private var block: [UInt8]
    /// Bytes handed on so far.
    private(set) var handedOn: Int64 = 0

    /// A gatherer whose blocks go to `handOff`.
    init(pipeline: DownloadPipeline, handOff: BlockHandOff) {
        self.handOff = handOff
        blockSize = pipeline.blockSize
        block = Self.emptyBlock(blockSize, from: handOff)
    }

    /// Appends `data`, handing on each block it fills.
    ///
    /// - Returns: Whether a block was handed on (a moment to report progress).
    /// - Throws: The writer's failure (disk full, ...), once it stopped.
    @discardableResult
    mutating func append(_ data: Data) async throws -> Bool {
        var handed = false
        var start = data.startIndex
        while start < data.endIndex {
            let end = min(data.endIndex, start + (blockSize - block.count))
            // Invariant: data.startIndex <= start < end <= data.endIndex, so the rebased range lies inside data's bytes.
            data.withUnsafeBytes { bytes in
                let base = data.startIndex
                block.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(start - base)..<(end - base)]))
            }
            start = end
            if block.count >= blockSize {
                try await flush()
                handed = true
            }
        }
        return handed
    }

    /// Hands on the bytes gathered so far (at the end of the body, or to keep them after a failure).
    ///
    /// - Throws: The writer's failure, once it stopped.
    mutating func flush() async throws {
        if let failure = handOff.failure { throw failure }
        guard !block.isEmpty else { return }
        let full = block
        block = []
        await handOff.send(full)
        handedOn += Int64(full.count)
        if let failure = handOff.failure { throw failure }
        // Taken once the hand-off has room: at most `blocksInFlight + 1` blocks exist.
        block = Self.emptyBlock(blockSize, from: handOff)
    }

    private static func emptyBlock(_ size: Int, from handOff: BlockHandOff) -> [UInt8] {
        if let spare = handOff.spareBlock() { return spare }
        var block: [UInt8] = []
        block.reserveCapacity(size)
        return block
    }
}
