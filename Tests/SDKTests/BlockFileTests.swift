import Foundation
import Testing

@testable import EduGoSDK

/// ``BlockFile``: a download's partial file, aligned blocks written with direct I/O on Linux, the
/// rest through the page cache, every byte in order.
@Suite(.timeLimit(.minutes(1))) struct BlockFileTests {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
    @Test("aligned blocks bypass the page cache; an unaligned tail goes through it; the file holds every byte in order")
    func alignedBlocksAreWrittenDirectly() async throws {
        try await withTemporaryDirectory { root in
            // Given a new partial file and a body of two aligned blocks, an unaligned tail, then one more block
            let url = root.appendingPathComponent("lesson.part")
            let body = PartialFileWriterTests.bytes(3 * 8192 + 100, seed: 11)
            let file = try BlockFile(appendingTo: url, blockSize: 8192)

            // When the aligned blocks are appended, the descriptor is open for direct I/O
            try append(body[0..<8192], to: file)
            try append(body[8192..<16_384], to: file)
            #expect(file.usesDirectIO)

            // And once an unaligned piece was written, the rest goes through the page cache
            try append(body[16_384..<16_484], to: file)
            #expect(!file.usesDirectIO)
            try append(body[16_484...], to: file)
            try file.synchronize()
            try file.close()

            // Then the file is the body, byte for byte
            #expect(try Data(contentsOf: url) == body)
        }
    }
    #endif

    @Test("a resume at an unaligned offset appends after the bytes already there, through the page cache")
    func unalignedResumeAppends() async throws {
        try await withTemporaryDirectory { root in
            let url = root.appendingPathComponent("lesson.part")
            let body = PartialFileWriterTests.bytes(10_001 + 8192, seed: 13)
            try body.prefix(10_001).write(to: url)

            let file = try BlockFile(appendingTo: url, blockSize: 8192)
            #expect(!file.usesDirectIO)
            try append(body.dropFirst(10_001), to: file)
            try file.synchronize()
            try file.close()

            #expect(try Data(contentsOf: url) == body)
        }
    }

    #if os(Linux)
    @Test("a write the disk refuses (full) throws ENOSPC, as a full disk does")
    func fullDiskThrows() throws {
        // /dev/full answers every write with ENOSPC
        let file = try BlockFile(appendingTo: URL(fileURLWithPath: "/dev/full"), blockSize: 8192)
        let block = PartialFileWriterTests.bytes(8192, seed: 17)
        #expect(throws: POSIXError(.ENOSPC)) { try append(block, to: file) }
        try file.close()
    }
    #endif

    #if os(Linux) && (arch(x86_64) || arch(arm64))
    @Test("the staging buffer's edges: no bytes, exactly its capacity, one aligned block more than it, one byte")
    func stagingBufferEdges() async throws {
        try await withTemporaryDirectory { root in
            // Given blocks of two alignments and one byte: the staging buffer holds two alignments (8,192 bytes)
            let url = root.appendingPathComponent("lesson.part")
            let alignment = BlockFile.directAlignment
            let body = PartialFileWriterTests.bytes(2 * alignment + 3 * alignment + 1, seed: 19)
            let file = try BlockFile(appendingTo: url, blockSize: 2 * alignment + 1)

            // When nothing is appended, nothing is written and direct I/O stays on
            try append(Data(), to: file)
            #expect(file.usesDirectIO)
            // And a block of exactly the staging buffer's size goes through it, directly
            try append(body[0..<(2 * alignment)], to: file)
            #expect(file.usesDirectIO)
            // And an aligned block larger than the staging buffer goes through the page cache
            try append(body[(2 * alignment)..<(5 * alignment)], to: file)
            #expect(!file.usesDirectIO)
            // And so does one last byte
            try append(body[(5 * alignment)...], to: file)
            try file.synchronize()
            try file.close()

            // Then the file is the body, byte for byte (every byte value, not text)
            #expect(try Data(contentsOf: url) == body)
        }
    }
    #endif

    @Test("a new file's first write of any size near the alignment keeps every byte",
          arguments: [0, 1, BlockFile.directAlignment - 1, BlockFile.directAlignment, BlockFile.directAlignment + 1])
    func firstWriteOfAnySize(_ size: Int) async throws {
        try await withTemporaryDirectory { root in
            let url = root.appendingPathComponent("lesson.part")
            let body = PartialFileWriterTests.bytes(size + BlockFile.directAlignment, seed: UInt64(23 + size))
            let file = try BlockFile(appendingTo: url, blockSize: BlockFile.directAlignment)
            try append(body.prefix(size), to: file)
            try append(body.dropFirst(size), to: file)
            try file.synchronize()
            try file.close()
            #expect(try Data(contentsOf: url) == body)
        }
    }

    private func append(_ bytes: Data, to file: BlockFile) throws {
        try bytes.withUnsafeBytes { try file.append($0) }
    }
}
