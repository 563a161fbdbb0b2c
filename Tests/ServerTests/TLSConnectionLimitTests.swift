import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import Testing

@testable import EduGoServer

/// Sockets of the real `edugo-server` binary speaking TLS (`--tls-dev`), with and without HTTP/2.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct TLSConnectionLimitTests {
    /// A GET of `/health` over TLS (certificate not verified) with HTTP/2 offered by ALPN or not.
    func health(port: Int, http2: Bool, timeout: Duration) async throws -> (status: Int, httpMajor: Int) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = http2 ? .automatic : .http1Only
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            let response = try await client.execute(
                HTTPClientRequest(url: "https://127.0.0.1:\(port)/health"), timeout: .nanoseconds(timeout.nanoseconds))
            _ = try await response.body.collect(upTo: 1 << 16)
            try await client.shutdown()
            return (Int(response.status.code), response.version.major)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test(
        "--max-connections 5 over TLS: five sockets that never send a ClientHello are closed within --idle-timeout and a sixth client is served",
        arguments: [true, false])
    func silentSocketsReleaseTheCap(http2: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory,
                arguments: ["--tls-dev", "--idle-timeout", "2", "--max-connections", "5"] + (http2 ? [] : ["--no-http2"]))
            do {
                // Given five TCP connections that never start a handshake, holding the cap
                let silent = try (0..<5).map { _ in try RawConnection(port: server.port) }
                try await Task.sleep(for: .milliseconds(300))

                // When a sixth, real client asks for /health
                let started = ContinuousClock.now
                let answer = try await health(port: server.port, http2: http2, timeout: .seconds(20))

                // Then it is served once the silent ones are closed: within the idle timeout plus slack
                let waited = ContinuousClock.now - started
                #expect(answer.status == 200)
                #expect(answer.httpMajor == (http2 ? 2 : 1))
                #expect(waited < .seconds(8), "waited \(waited)")
                for connection in silent {
                    #expect(await connection.readUntilClosed(timeout: .seconds(4)).closed)
                }
                #expect(await server.stop())
            } catch {
                await server.kill()
                throw error
            }
        }
    }

    @Test("an HTTP/2 connection that ignores GOAWAY is closed at --max-connection-age plus the grace period at the latest")
    func http2ConnectionThatIgnoresGoAwayIsClosed() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--tls-dev", "--idle-timeout", "1", "--max-connection-age", "2"])
            do {
                // Given a connection that negotiated h2, sent its preface and then ignores the server
                let connection = try await SilentHTTP2Connection.open(port: server.port)

                // Then the server closes it within age (2 s) + grace (1 s) + slack
                let closed = await connection.isClosed(within: .seconds(8))
                await connection.close()
                #expect(closed, "the connection outlived --max-connection-age and its grace period")
                #expect(try await health(port: server.port, http2: true, timeout: .seconds(10)).status == 200)
                #expect(await server.stop())
            } catch {
                await server.kill()
                throw error
            }
        }
    }

    @Test("an HTTP/2 connection that ignores the idle timeout's GOAWAY and its PING is closed within the grace period")
    func http2ConnectionIgnoringIdleGoAwayIsClosedAfterGrace() async throws {
        try await withTemporaryDirectory { directory in
            // Given the default --max-connection-age (an hour), so only the GOAWAY can end the connection
            let server = try await ServerProcess.launch(dataDirectory: directory, arguments: ["--tls-dev", "--idle-timeout", "1"])
            do {
                // Given a connection that negotiated h2, sent its preface and then ignores the server
                let connection = try await SilentHTTP2Connection.open(port: server.port)

                // Then the server closes it within idle timeout (1 s) + grace (1 s) + slack
                let closed = await connection.isClosed(within: .seconds(8))
                await connection.close()
                #expect(closed, "the connection outlived its GOAWAY's grace period")
                #expect(try await health(port: server.port, http2: true, timeout: .seconds(10)).status == 200)
                #expect(await server.stop())
            } catch {
                await server.kill()
                throw error
            }
        }
    }

    @Test("--max-connections 5 over TLS HTTP/1.1: five clients that pipeline 40 GET /openapi.yaml and never read are closed, and a sixth is served")
    func nonReadingTLSClientsReleaseTheCap() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--tls-dev", "--idle-timeout", "2", "--max-connections", "5"])
            do {
                // Given five TLS connections with a small receive buffer, each past its handshake (accepted)
                var stuck: [NonReadingTLSConnection] = []
                for _ in 0..<5 { stuck.append(try await NonReadingTLSConnection.open(port: server.port)) }
                // When each pipelines forty large answers and never reads them
                for connection in stuck { try await connection.send(SlowReaderTests.pipelinedSpecRequests) }
                let stalledFrom = ContinuousClock.now

                // Then a sixth client is served once the server has closed them
                let started = ContinuousClock.now
                let answer = try await health(port: server.port, http2: false, timeout: .seconds(20))
                let waited = ContinuousClock.now - started
                #expect(answer.status == 200)
                #expect(waited < .seconds(12), "waited \(waited)")

                // And each of the five was closed before its answers were all written
                // (read only once the server had time to close them all: reading makes progress, and
                // the sixth is served as soon as the first of them is closed)
                try await Task.sleep(until: stalledFrom + .seconds(8))
                let full = try SlowReaderTests.pipelinedSpecBodies
                for connection in stuck {
                    let drained = await connection.drain(timeout: .seconds(30))
                    #expect(drained.closed)
                    #expect(drained.bytes < full, "every answer arrived (\(drained.bytes) bytes): the connection was only waiting")
                    await connection.close()
                }
                #expect(await server.stop())
            } catch {
                await server.kill()
                throw error
            }
        }
    }
}
