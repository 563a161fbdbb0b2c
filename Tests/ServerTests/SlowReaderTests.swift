import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// Clients that send requests and never read the answers: their connections must not be held
/// for ever (issue #42, item 1).
@Suite(.serialized, .timeLimit(.minutes(5)))
struct SlowReaderTests {
    /// How many requests each stalled client pipelines: the audit's twenty answers (4.8 MB) can
    /// fit in a loopback socket's send queue (tcp_wmem reaches 4 MiB; 2.8 MB was seen queued per
    /// connection), after which the server is done with them and closes them anyway; forty (9.5 MB)
    /// cannot.
    static let pipelined = 40

    /// The pipelined requests for the API description (about 240 KB each), sent at once.
    static let pipelinedSpecRequests = String(
        repeating: "GET /openapi.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: pipelined)

    /// The bodies of all the answers alone: a connection the server gave up on delivers less
    /// (what the kernel had queued), one that was only waiting delivers them all once read.
    static var pipelinedSpecBodies: Int {
        get throws {
            let spec = DevConsoleDataTests.repositoryRoot.appendingPathComponent("Sources/Server/Resources/openapi.yaml")
            return pipelined * (try Data(contentsOf: spec).count)
        }
    }

    @Test("--max-connections 5: five clients that pipeline 40 GET /openapi.yaml and never read are closed, and a sixth is served")
    func nonReadingClientsReleaseTheCap() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--idle-timeout", "2", "--max-connections", "5"])
            do {
                // Given five connections with a small receive buffer, each accepted and served once
                var stuck: [RawConnection] = []
                for _ in 0..<5 {
                    let connection = try RawConnection(port: server.port, receiveBuffer: 4096)
                    try #require(try await connection.exchange("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") == 200)
                    stuck.append(connection)
                }
                // When each pipelines forty large answers and never reads them
                for connection in stuck { try connection.send(Self.pipelinedSpecRequests) }
                let stalledFrom = ContinuousClock.now

                // Then a sixth client is served once the server has closed them: within the idle
                // timeout (2 s) plus slack, never while they stay open
                let started = ContinuousClock.now
                let sixth = try RawConnection(port: server.port)
                let status = try await sixth.exchange("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", timeout: .seconds(20))
                let waited = ContinuousClock.now - started
                #expect(status == 200, "the sixth client was not served within 20 s")
                #expect(waited < .seconds(12), "waited \(waited)")

                // And each of the five was closed by the server before its answers were all
                // written (the sixth being served alone does not show that every stalled one ends)
                // (read only once the server had time to close them all: reading makes progress, and
                // the sixth is served as soon as the first of them is closed)
                try await Task.sleep(until: stalledFrom + .seconds(8))
                let full = try Self.pipelinedSpecBodies
                for (index, connection) in stuck.enumerated() {
                    let arrived = await connection.arrivals(timeout: .seconds(30))
                    let received = arrived.pieces.reduce(0) { $0 + $1.bytes.count }
                    #expect(arrived.closed, "connection \(index)")
                    #expect(received < full, "connection \(index): every answer arrived (\(received) bytes), it was only waiting")
                }
                #expect(await server.stop())
            } catch {
                await server.kill()
                throw error
            }
        }
    }

    @Test("a lesson media download to a client that stops reading ends before the file does")
    func mediaDownloadToAStalledClientEnds() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            configuration.connections.idleTimeout = .seconds(2)
            let app = try await buildApplication(configuration)
            try await app.test(.live) { client in
                let port = try #require(client.port)
                // Given a lesson with a 16 MiB file
                let teacher = try await client.caller(.demoTeacher)
                let course = try await client.course(titled: SeededCourse.swift, as: teacher)
                let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
                let size = 16 << 20
                try await client.expectUpload(MediaFixture.pdf(size), course: course.id, lesson: lesson.id, as: teacher)

                // When a client with a small receive buffer asks for it and reads nothing for a while
                let connection = try RawConnection(port: port, receiveBuffer: 4096)
                try connection.send(
                    "GET \(client.mediaPath(course.id, lesson.id)) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Authorization: Bearer \(teacher.token)\r\n\r\n")
                try await Task.sleep(for: .seconds(8))

                // Then the server has ended the download: what the client then reads stops short of the file
                let arrived = await connection.arrivals(timeout: .seconds(30))
                let received = arrived.pieces.reduce(0) { $0 + $1.bytes.count }
                #expect(arrived.closed)
                #expect(received < size, "the whole file arrived (\(received) bytes): the stalled download was never ended")
            }
        }
    }
}
