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

    private func append(_ bytes: Data, to file: BlockFile) throws {
        try bytes.withUnsafeBytes { try file.append($0) }
    }
}
