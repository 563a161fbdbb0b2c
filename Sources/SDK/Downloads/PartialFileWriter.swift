import Crypto
import Foundation

/// The task that stores a download: it writes the blocks a ``BlockHandOff`` delivers to the end of
/// the partial file, one `write` each (direct I/O on Linux, see ``BlockFile``), and hashes each
/// block once written, so the hash covers exactly the bytes written, in order. It runs beside the
/// task that receives the body (``BlockGatherer``): the disk's time overlaps with receiving.
///
/// A resumed download's partial file is hashed from disk first, so a byte that changed there while
/// the download was interrupted fails the checksum.
enum PartialFileWriter {
    /// Writes and hashes the blocks `handOff` delivers, appending them to `file` (created when
    /// missing) after its first `existing` bytes, which are hashed from disk first. Once the
    /// hand-off is closed and every block written, the file is flushed to storage and closed.
    ///
    /// - Returns: The SHA-256 of the file's bytes; `nil` when the hand-off was cancelled (the
    ///   queued blocks are dropped and the file is closed without a flush).
    /// - Throws: The file's error (opening, reading, writing, flushing), after failing the
    ///   hand-off with it, so the receiving side stops.
    static func write(
        _ handOff: BlockHandOff, to file: URL, after existing: Int64, pipeline: DownloadPipeline
    ) async throws -> SHA256.Digest? {
        do {
            var hasher = SHA256()
            if existing > 0 { try hash(file, bytes: existing, blockSize: pipeline.blockSize, into: &hasher) }
            let output = try BlockFile(appendingTo: file, blockSize: pipeline.blockSize)
            while let block = await handOff.next() {
                try block.withUnsafeBytes { try output.append($0) }
                block.withUnsafeBytes { hasher.update(bufferPointer: $0) }
                handOff.recycle(block)
            }
            guard !handOff.wasCancelled else {
                try? output.close()
                return nil
            }
            try output.synchronize()
            try output.close()
            return hasher.finalize()
        } catch {
            handOff.fail(error)
            throw error
        }
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
