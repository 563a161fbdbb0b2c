import Crypto
import Foundation

/// A response body's way into a download's partial file: the transport's small chunks are gathered
/// into blocks of ``DownloadPipeline/blockSize``, each block is written with one `write` (direct
/// I/O on Linux, see ``BlockFile``) and then handed to the hasher (``BlockHandOff``), so the hash
/// covers exactly the bytes written, in order.
///
/// A resumed download first hands the partial file's bytes to the hasher (``hashExisting(_:bytes:)``),
/// so a byte that changed on disk while the download was interrupted fails the checksum.
struct PartialFileWriter {
    private let file: BlockFile
    private let handOff: BlockHandOff
    private let blockSize: Int
    private var block: [UInt8]
    /// Bytes written to the file by this writer (the resumed file's earlier bytes not included).
    private(set) var written: Int64 = 0

    /// Opens `file` (created when missing) for appending; blocks go to `handOff`.
    ///
    /// - Throws: When the file cannot be opened.
    init(appendingTo file: URL, pipeline: DownloadPipeline, handOff: BlockHandOff) throws {
        self.file = try BlockFile(appendingTo: file, blockSize: pipeline.blockSize)
        self.handOff = handOff
        blockSize = pipeline.blockSize
        block = Self.emptyBlock(blockSize, from: handOff)
    }

    /// Appends `data`, writing and handing on each block it fills.
    ///
    /// - Returns: Whether a block was written (a moment to report progress).
    /// - Throws: The file's write error (disk full, ...).
    @discardableResult
    mutating func append(_ data: Data) async throws -> Bool {
        var wrote = false
        var start = data.startIndex
        while start < data.endIndex {
            let end = min(data.endIndex, start + (blockSize - block.count))
            data.withUnsafeBytes { bytes in
                let base = data.startIndex
                block.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(start - base)..<(end - base)]))
            }
            start = end
            if block.count >= blockSize {
                try await flush()
                wrote = true
            }
        }
        return wrote
    }

    /// Writes the bytes gathered so far and hands them to the hasher (the end of the body).
    mutating func flush() async throws {
        guard !block.isEmpty else { return }
        try block.withUnsafeBytes { try file.append($0) }
        written += Int64(block.count)
        let full = block
        block = []
        await handOff.send(full)
        // Taken once the hand-off has room: at most `blocksInFlight + 1` blocks exist.
        block = Self.emptyBlock(blockSize, from: handOff)
    }

    /// Writes the bytes gathered so far without hashing them: the attempt failed, its bytes are
    /// kept for a resume (which hashes the file from disk).
    mutating func persist() throws {
        guard !block.isEmpty else { return }
        try block.withUnsafeBytes { try file.append($0) }
        written += Int64(block.count)
        block.removeAll(keepingCapacity: true)
    }

    /// Flushes the file to storage and closes it.
    func close() throws {
        try file.synchronize()
        try file.close()
    }

    /// Closes the file, ignoring errors (after a failure).
    func abandon() {
        try? file.close()
    }

    /// Whether the next aligned block bypasses the page cache (see ``BlockFile``).
    var usesDirectIO: Bool { file.usesDirectIO }

    /// Hands the first `bytes` bytes of `file` to the hasher, read a block at a time.
    ///
    /// - Throws: When the file cannot be read.
    static func hashExisting(_ file: URL, bytes: Int64, pipeline: DownloadPipeline, to handOff: BlockHandOff) async throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var remaining = bytes
        while remaining > 0 {
            guard let chunk = try handle.read(upToCount: Int(min(Int64(pipeline.blockSize), remaining))), !chunk.isEmpty else {
                // The file is shorter than recorded: what there is is hashed, and the checksum fails.
                return
            }
            var block = emptyBlock(pipeline.blockSize, from: handOff)
            chunk.withUnsafeBytes { block.append(contentsOf: $0) }
            remaining -= Int64(chunk.count)
            await handOff.send(block)
        }
    }

    /// The SHA-256 of the blocks `handOff` delivers, each recycled once hashed; `nil` when the
    /// hand-off was cancelled.
    static func digest(of handOff: BlockHandOff) async -> SHA256.Digest? {
        var hasher = SHA256()
        while let block = await handOff.next() {
            block.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            handOff.recycle(block)
        }
        return handOff.wasCancelled ? nil : hasher.finalize()
    }

    private static func emptyBlock(_ size: Int, from handOff: BlockHandOff) -> [UInt8] {
        if let spare = handOff.spareBlock() { return spare }
        var block: [UInt8] = []
        block.reserveCapacity(size)
        return block
    }
}
