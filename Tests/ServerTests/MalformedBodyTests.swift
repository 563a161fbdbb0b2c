import Foundation
import Testing

@testable import EduGoServer

/// A request body the HTTP parser cannot read is the client's error.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct MalformedBodyTests {
    @Test("a POST whose chunk size line is not hexadecimal answers 400 problem+json, never 500, and the connection closes")
    func invalidChunkSizeIsABadRequest() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(dataDirectory: directory)
            do {
                // Given a login whose chunked body has a chunk size line that is not a number
                let connection = try RawConnection(port: server.port)
                try connection.send(
                    "POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Tenant-ID: demo\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "zz\r\n{\"email\":\"a@b.c\"}\r\n0\r\n\r\n")

                // When the server answers
                let outcome = await connection.readUntilClosed(timeout: .seconds(10))

                // Then it is a single 400 problem, with the security headers, and the connection ends
                let statusLine = outcome.text.split(separator: "\r\n").first.map(String.init) ?? ""
                #expect(statusLine.hasPrefix("HTTP/1.1 400"), "received: \(outcome.text)")
                #expect(!outcome.text.contains(" 500 "), "received: \(outcome.text)")
                #expect(outcome.text.lowercased().contains("content-type: application/problem+json"), "received: \(outcome.text)")
                #expect(outcome.text.lowercased().contains("x-content-type-options: nosniff"))
                #expect(outcome.text.components(separatedBy: "HTTP/1.1 ").count == 2, "one response: \(outcome.text)")
                #expect(outcome.closed)
                await server.stop()
            } catch {
                await server.kill()
                throw error
            }
        }
    }
}
