import Foundation
import Testing

@testable import EduGoSDK

/// ``BlockGatherer`` and ``PartialFileWriter``: a download's bytes gathered into blocks, then written
/// and hashed on a task of their own.
@Suite(.timeLimit(.minutes(1))) struct PartialFileWriterTests {
    /// A small pipeline, so a few KiB cross many blocks and the writer waits for the hasher.
    let pipeline = DownloadPipeline(blockSize: 4096, blocksInFlight: 2)

    @Test("the digest is over exactly the bytes written: chunks smaller, equal to and larger than a block, file and hash match the body")
    func digestCoversTheBytesWritten() async throws {
        try await withTemporaryDirectory { root in
            // Given no partial file yet and a body that arrives in chunks of awkward sizes
            let file = root.appendingPathComponent("lesson.part")
            let body = Self.bytes(60_000, seed: 7)
            let chunks = Self.split(body, sizes: [1, 4095, 4096, 4097, 3, 9000, 8192, 17])

            // When the writer takes every chunk and the body ends
            let (digest, written) = try await write(chunks, to: file)

            // Then the file holds the body, and the hash is the body's
            #expect(written == Int64(body.count))
            #expect(try Data(contentsOf: file) == body)
            #expect(digest == (try Downloads.sha256(of: file)))
        }
    }

    @Test("bodies at a block's edges: empty, one byte, one block, one block plus one, and empty chunks among them", arguments: [
        [0], [1], [4096], [4097], [0, 4096, 0, 1], [4095, 1], [2048, 2048, 0],
    ])
    func blockEdges(_ sizes: [Int]) async throws {
        // BlockGatherer copies each chunk into its block through a rebased buffer (issue #46, item 4).
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("lesson.part")
            let body = Self.bytes(sizes.reduce(0, +), seed: 11)
            let (digest, written) = try await write(Self.split(body, sizes: sizes), to: file)
            #expect(written == Int64(body.count))
            #expect(try Data(contentsOf: file) == body)
            #expect(digest == (try Downloads.sha256(of: file)))
        }
    }

    @Test("a chunk that is a slice of a larger buffer (its indices not starting at zero) is copied from its own bytes")
    func slicedChunks() async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("lesson.part")
            let whole = Self.bytes(10_000, seed: 13)
            let chunks = [whole[100..<4196], whole[4196..<4197], whole[4197..<9999]]
            let (_, written) = try await write(chunks, to: file)
            #expect(written == 9_899)
            #expect(try Data(contentsOf: file) == whole[100..<9999])
        }
    }

    @Test("a resume hashes the partial file's bytes from disk, then the new ones: the digest is the whole file's")
    func resumeHashesThePartialFileFirst() async throws {
        try await withTemporaryDirectory { root in
            // Given a partial file with the first 10,001 bytes of a body
            let file = root.appendingPathComponent("lesson.part")
            let body = Self.bytes(30_000, seed: 9)
            try body.prefix(10_001).write(to: file)

            // When the rest arrives after the partial file was handed to the hasher
            let (digest, _) = try await write(Self.split(body.dropFirst(10_001), sizes: [5000, 1, 7000]), to: file, resumingAt: 10_001)

            // Then the digest covers the partial bytes and the new ones, in order
            #expect(try Data(contentsOf: file) == body)
            #expect(digest == (try Downloads.sha256(of: file)))
        }
    }

    @Test("a byte that changed in the partial file while the download was interrupted changes the digest")
    func changedPartialByteChangesTheDigest() async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("lesson.part")
            let body = Self.bytes(20_000, seed: 3)
            var partial = body.prefix(9_000)
            partial[partial.startIndex + 4_500] ^= 0x01
            try partial.write(to: file)

            let (digest, _) = try await write([body.dropFirst(9_000)], to: file, resumingAt: 9_000)

            let expected = root.appendingPathComponent("expected")
            try body.write(to: expected)
            #expect(digest != (try Downloads.sha256(of: expected)))
        }
    }

    @Test("an attempt that fails hands on what it gathered: the writer stores every byte received, for a resume")
    func failedAttemptKeepsTheBytes() async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("lesson.part")
            let body = Self.bytes(10_000, seed: 5)
            let handOff = BlockHandOff(capacity: pipeline.blocksInFlight)
            let writer = Task { try await PartialFileWriter.write(handOff, to: file, after: 0, pipeline: pipeline) }
            var gatherer = BlockGatherer(pipeline: pipeline, handOff: handOff)
            try await gatherer.append(body)

            // When the attempt fails, the block being gathered is handed on and the hand-off closed
            try await gatherer.flush()
            handOff.close()
            _ = try await writer.value

            // Then the file holds every byte, the last, partly gathered block included
            #expect(try Data(contentsOf: file) == body)
        }
    }

    #if os(Linux)
    @Test("a write the disk refuses stops the receiving side with the writer's error (a full disk)")
    func diskFailureStopsTheGatherer() async throws {
        // /dev/full answers every write with ENOSPC
        let handOff = BlockHandOff(capacity: pipeline.blocksInFlight)
        let writer = Task {
            try await PartialFileWriter.write(handOff, to: URL(fileURLWithPath: "/dev/full"), after: 0, pipeline: pipeline)
        }
        var gatherer = BlockGatherer(pipeline: pipeline, handOff: handOff)
        let body = Self.bytes(pipeline.blockSize * 8, seed: 19)
        await #expect(throws: POSIXError(.ENOSPC)) {
            for chunk in Self.split(body, sizes: [1000]) { try await gatherer.append(chunk) }
            try await gatherer.flush()
        }
        await #expect(throws: POSIXError(.ENOSPC)) { try await writer.value }
    }
    #endif

    /// Runs a gatherer over `chunks` with the writer on a task of its own, as ``Downloads`` does.
    private func write(_ chunks: [Data], to file: URL, resumingAt offset: Int64 = 0) async throws -> (String?, Int64) {
        let handOff = BlockHandOff(capacity: pipeline.blocksInFlight)
        let writer = Task { try await PartialFileWriter.write(handOff, to: file, after: offset, pipeline: pipeline) }
        var gatherer = BlockGatherer(pipeline: pipeline, handOff: handOff)
        for chunk in chunks { try await gatherer.append(chunk) }
        try await gatherer.flush()
        handOff.close()
        let digest = try await writer.value
        #expect(handOff.peakInFlight <= pipeline.blocksInFlight)
        return (digest.map(Downloads.hex), gatherer.handedOn)
    }

    static func bytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed | 1
        return Data((0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }

    /// `data` in chunks of `sizes`, cycled, the last one shorter; each chunk a slice, as a transport's may be.
    static func split(_ data: Data, sizes: [Int]) -> [Data] {
        var chunks: [Data] = []
        var start = data.startIndex
        var index = 0
        while start < data.endIndex {
            let end = min(data.endIndex, start + sizes[index % sizes.count])
            chunks.append(data[start..<end])
            start = end
            index += 1
        }
        return chunks
    }
}
