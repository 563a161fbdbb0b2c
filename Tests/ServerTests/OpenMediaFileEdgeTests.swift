import Foundation
import Testing

@testable import EduGoServer

/// The edges of a download's reads into a buffer `pread` fills (issue #46, item 4): one byte, a
/// range of exactly one chunk, one byte more, non-ASCII bytes, and a file shorter than its record.
@Suite(.timeLimit(.minutes(1)))
struct OpenMediaFileEdgeTests {
    static let text = Data("Matemáticas 日本語 🎓".utf8)  // 27 bytes, 15 of them not ASCII

    /// `body` of `file` written to the end, with chunks of `chunk` bytes.
    func served(_ file: OpenMediaFile, _ range: ClosedRange<Int>, chunk: Int) async throws -> Data {
        try await MediaOpenRaceTests.collect(file.body(range: range, chunkLength: chunk))
    }

    @Test("one byte, a range of exactly one chunk, one byte more and one less are served exactly")
    func chunkEdges() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("lesson.txt")
            try Self.text.write(to: path)
            let file = try #require(try await OpenMediaFile.open(path: path.path))
            #expect(try await served(file, 0...0, chunk: 4) == Self.text.prefix(1))
            #expect(try await served(file, 26...26, chunk: 4) == Self.text.suffix(1))
            for length in [3, 4, 5, 8, 9] {
                #expect(try await served(file, 2...(1 + length), chunk: 4) == Self.text[2...(1 + length)], "\(length) bytes")
            }
            #expect(try await served(file, 0...26, chunk: 27) == Self.text)
            #expect(try await served(file, 0...26, chunk: 26) == Self.text)
            #expect(try await served(file, 0...26, chunk: 1) == Self.text)
        }
    }

    @Test("a file shorter than the range (an empty one too) ends the body with an error, after the bytes it has")
    func shorterThanItsRecord() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("lesson.txt")
            try Self.text.write(to: path)
            let file = try #require(try await OpenMediaFile.open(path: path.path))
            await #expect(throws: (any Error).self) { try await served(file, 0...27, chunk: 4) }
            await #expect(throws: (any Error).self) { try await served(file, 27...27, chunk: 4) }
            let empty = directory.appendingPathComponent("empty.txt")
            try Data().write(to: empty)
            let emptyFile = try #require(try await OpenMediaFile.open(path: empty.path))
            await #expect(throws: (any Error).self) { try await served(emptyFile, 0...0, chunk: 4) }
            #expect(try await OpenMediaFile.open(path: directory.appendingPathComponent("missing").path) == nil)
        }
    }
}
