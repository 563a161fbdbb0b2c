import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// Lesson media uploads over a real socket, streamed in chunks as a client sends them.
@Suite(.timeLimit(.minutes(2)))
struct LessonMediaStreamingTests {
    /// A live server with a temporary data directory; `test` gets the client, the port and the directory.
    func withLiveServer(
        maxMediaSize: Int, _ test: @Sendable (any TestClientProtocol, Int, URL) async throws -> Void
    ) async throws {
        try await withTemporaryDirectory { directory in
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            configuration.maxMediaSize = maxMediaSize
            let app = try await buildApplication(configuration)
            try await app.test(.live) { client in
                let port = try #require(client.port)
                try await test(client, port, directory)
            }
        }
    }

    /// The head of a chunked upload of a PDF, without its body.
    func uploadHead(_ path: String, token: String, version: Int) -> String {
        "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/pdf\r\nIf-Match: \"\(version)\"\r\nTransfer-Encoding: chunked\r\n\r\n"
    }

    /// One chunk of `count` bytes of a PDF (its first chunk starts with the signature).
    func chunk(_ count: Int, first: Bool) -> String {
        let data = (first ? "%PDF-1.7\n" : "") + String(repeating: "a", count: count - (first ? 9 : 0))
        return String(count, radix: 16) + "\r\n" + data + "\r\n"
    }

    /// Waits until `condition` holds, at most `timeout`.
    func eventually(_ timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test("a chunked upload crossing --max-media-size answers 413 before the client finished; nothing is left on disk")
    func limitCrossedMidStream() async throws {
        try await withLiveServer(maxMediaSize: 1 << 20) { client, port, directory in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
            let connection = try RawConnection(port: port)

            // When the client sends 1.25 MiB in 64 KiB chunks, without a Content-Length, and keeps the request open
            try connection.send(uploadHead(client.mediaPath(course.id, lesson.id), token: teacher.token, version: lesson.version))
            for index in 0..<20 {
                try connection.send(chunk(64 << 10, first: index == 0))
            }

            // Then the server answers 413 without waiting for the end of the body
            #expect(await connection.status(within: .seconds(10)) == 413)
            // and removed the partial file; the lesson is unchanged
            #expect(try await eventually { mediaFiles(in: directory).isEmpty }, "\(mediaFiles(in: directory))")
            let after = try #require(try await client.lessons(of: course.id, as: teacher).first { $0.id == lesson.id })
            #expect(after.version == lesson.version)
        }
    }

    @Test("a connection dropped mid-upload leaves no file and no change to the lesson")
    func droppedConnection() async throws {
        try await withLiveServer(maxMediaSize: 64 << 20) { client, port, directory in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            do {
                // Given half an upload, streamed to an unnamed staging file as it arrives (it gets a
                // name in `.incoming` only once complete)
                let connection = try RawConnection(port: port)
                try connection.send(uploadHead(client.mediaPath(course.id, lesson.id), token: teacher.token, version: lesson.version))
                for index in 0..<16 {
                    try connection.send(chunk(64 << 10, first: index == 0))
                }
                try await Task.sleep(for: .milliseconds(300))
                // When the client goes away (the connection closes at the end of this scope)
                withExtendedLifetime(connection) {}
            }

            // Then the partial file is removed and the lesson never changed
            #expect(try await eventually { mediaFiles(in: directory).isEmpty }, "\(mediaFiles(in: directory))")
            let after = try #require(try await client.lessons(of: course.id, as: teacher).first { $0.id == lesson.id })
            #expect(after.version == lesson.version)
            let download = try await client.downloadMedia(course: course.id, lesson: lesson.id, as: teacher)
            try expectProblem(download, .notFound, "not_found")
        }
    }
}
