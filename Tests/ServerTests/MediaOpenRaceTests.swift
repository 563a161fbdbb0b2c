import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// A download opens its file before its head is sent: a replacement committed in between is seen
/// by a second lookup, and a file removed after the open is still served whole.
@Suite(.timeLimit(.minutes(1)))
struct MediaOpenRaceTests {
    func media(_ file: URL, bytes: Int) -> LessonMediaFile {
        LessonMediaFile(file: file, contentType: "application/pdf", size: bytes, sha256: "00", updatedAt: Date())
    }

    @Test("a file replaced between the lookup and the open: the second lookup's file is served")
    func replacedBeforeOpen() async throws {
        try await withTemporaryDirectory { directory in
            let old = directory.appendingPathComponent("lesson.old")
            let new = directory.appendingPathComponent("lesson.new")
            try Data("old".utf8).write(to: old)
            try Data("new!".utf8).write(to: new)
            let lookups = Mutex(0)

            // When a replacement commits (and removes the old file) right after the first lookup
            let (found, file) = try await MediaRoutes.openCurrent {
                let count = lookups.withLock { count in
                    count += 1
                    return count
                }
                if count == 1 {
                    try FileManager.default.removeItem(at: old)
                    return media(old, bytes: 3)
                }
                return media(new, bytes: 4)
            }

            // Then the new file is what gets served, found by a second lookup
            #expect(found.file == new)
            #expect(lookups.withLock { $0 } == 2)
            #expect(try await Self.collect(file.body(range: 0...3)) == Data("new!".utf8))
        }
    }

    @Test("a recorded file missing from disk answers 404 media after one more lookup, not a 500")
    func missingFile() async throws {
        try await withTemporaryDirectory { directory in
            let lost = directory.appendingPathComponent("lesson.lost")
            let lookups = Mutex(0)
            do {
                _ = try await MediaRoutes.openCurrent {
                    lookups.withLock { $0 += 1 }
                    return media(lost, bytes: 10)
                }
                Issue.record("a missing file was opened")
            } catch let error as APIError {
                #expect(error.status == .notFound)
            }
            #expect(lookups.withLock { $0 } == 2)
        }
    }

    @Test("a file removed after it was opened is still served whole, in chunks and by range")
    func removedAfterOpen() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("lesson.big")
            let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try content.write(to: path)
            let file = try #require(try await OpenMediaFile.open(path: path.path))

            // When the file is unlinked (the lesson's media replaced) before the body is written
            try FileManager.default.removeItem(at: path)

            // Then every byte still arrives, across several 128 KiB chunks, and a range is exact
            #expect(try await Self.collect(file.body(range: 0...(content.count - 1))) == content)
            #expect(try await Self.collect(file.body(range: 1000...200_999)) == content[1000...200_999])
        }
    }

    /// The bytes a response body writes.
    static func collect(_ body: ResponseBody) async throws -> Data {
        let sink = Collector()
        try await body.write(sink)
        return sink.bytes.withLock { $0 }
    }

    /// A response body writer that keeps what it is given.
    final class Collector: ResponseBodyWriter, Sendable {
        let bytes = Mutex(Data())

        func write(_ buffer: ByteBuffer) async throws {
            bytes.withLock { $0.append(contentsOf: buffer.readableBytesView) }
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
