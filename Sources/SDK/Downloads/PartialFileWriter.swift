import Crypto
import Foundation

/// The tasks that store a download: one writes the blocks a ``BlockHandOff`` delivers to the end
/// of the partial file, one `write` each (direct I/O on Linux, see ``BlockFile``), and hands each
/// written block on to a second that hashes it, so the hash covers exactly the bytes written, in
/// order. They run beside the task that receives the body (``BlockGatherer``): the disk's time and
/// the hash overlap with receiving and with each other.
///
/// A resumed download's partial file is hashed from disk first, so a byte that changed there while
/// the download was interrupted fails the checksum.
enum PartialFileWriter {
    /// Writes the blocks `handOff` delivers, appending them to `file` (created when missing) after
    /// its first `existing` bytes, and hashes those bytes from disk, then each block once written.
    /// Once the hand-off is closed and every block written, the file is flushed to storage and
    /// closed. A hashed block goes back to `handOff`'s sender (``BlockHandOff/recycle(_:)``), so the
    /// blocks of both stages stay within `handOff`'s capacity.
    ///
    /// - Returns: The SHA-256 of the file's bytes; `nil` when the hand-off was cancelled (the
    ///   queued blocks are dropped and the file is closed without a flush).
    /// - Throws: The file's error (opening, reading, writing, flushing), after failing the
    ///   hand-off with it, so the receiving side stops.
    static func write(
        _ handOff: BlockHandOff, to file: URL, after existing: Int64, pipeline: DownloadPipeline
    ) async throws -> SHA256.Digest? {
        let written = BlockHandOff(capacity: handOff.capacity)
        async let digest = hash(written, recyclingTo: handOff, file: file, existing: existing, blockSize: pipeline.blockSize)
        do {
            let output = try BlockFile(appendingTo: file, blockSize: pipeline.blockSize)
            while let block = await handOff.next() {
                // Invariant: BlockFile.append reads the block's bytes only while the closure runs.
                try block.withUnsafeBytes { try output.append($0) }
                // Its slot in `handOff` stays taken until the hasher recycles it.
                await written.send(block)
            }
            if let failure = handOff.failure { throw failure }  // the hasher's
            guard !handOff.wasCancelled else {
                written.cancel()
                try? output.close()
                _ = await digest
                return nil
            }
            try output.synchronize()
            try output.close()
            written.close()
            return await digest
        } catch {
            handOff.fail(error)
            written.cancel()
            _ = await digest
            throw error
        }
    }

    /// Hashes the first `existing` bytes of `file`, then the blocks `written` delivers, giving each
    /// back to `handOff`'s sender once hashed.
    ///
    /// - Returns: The digest; `nil` when `written` was cancelled or the file could not be read (that
    ///   error then fails `handOff`).
    private static func hash(
        _ written: BlockHandOff, recyclingTo handOff: BlockHandOff, file: URL, existing: Int64, blockSize: Int
    ) async -> SHA256.Digest? {
        var hasher = SHA256()
        do {
            if existing > 0 { try hash(file, bytes: existing, blockSize: blockSize, into: &hasher) }
        } catch {
            handOff.fail(error)
            written.cancel()
            return nil
        }
        while let block = await written.next() {
            // Invariant: the hasher reads the block's bytes only while the closure runs.
            block.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            written.release()
            handOff.recycle(block)
        }
        return written.wasCancelled ? nil : hasher.finalize()
    }

    /// Feeds the first `bytes` bytes of `file` to `hasher`, read a block at a time; a file shorter
    /// than that feeds what there is (and the checksum fails).
    private static func hash(_ file: URL, bytes: Int64, blockSize: Int, into hasher: inout SHA256) throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var remaining = bytes
        while remaining > 0 {
            guard let chunk = try handle.read(upToCount: Int(min(Int64(blockSize), remaining))), !chunk.isEmpty else { return }
            hasher.update(data: chunk)
            remaining -= Int64(chunk.count)
        }
    }
}
