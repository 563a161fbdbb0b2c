import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// Dev mode's perimeter: the Host check against DNS rebinding, and `/__dev/*` for loopback peers only.
@Suite(.timeLimit(.minutes(3))) struct DevPerimeterTests {
    @Test("in dev mode a request whose Host is another name answers 421 misdirected_request (DNS rebinding)")
    func foreignHostIsRefused() async throws {
        try await withServer { client in
            // Given a page on attacker.example whose name now resolves to 127.0.0.1
            for path in ["/health", "/__dev/mailbox?email=admin@demo.edugo.dev", "/v1/courses"] {
                let response = try await client.send(.get, path, tenant: "demo", headers: [.host: "attacker.example"])

                try expectProblem(response, .misdirectedRequest, "misdirected_request")
            }
        }
    }

    @Test("localhost, 127.0.0.1, [::1] and an --allowed-host are served in dev mode")
    func loopbackNamesAreServed() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.allowedHosts = ["devbox.internal"]
        try await withServer(configuration) { client in
            for host in ["localhost", "127.0.0.1:8080", "[::1]:8080", "LOCALHOST", "devbox.internal"] {
                let response = try await client.send(.get, "/health", headers: [.host: host])
                #expect(response.status == .ok, "Host: \(host)")
            }
        }
    }

    @Test("outside dev mode the Host header is not checked")
    func noHostCheckOutsideDevMode() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.devMode = false
        configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
        try await withServer(configuration) { client in
            let response = try await client.send(.get, "/health", headers: [.host: "api.example.com"])
            #expect(response.status == .ok)
        }
    }

    @Test("a loopback name is allowed with any port; a foreign name with the server's own port is not")
    func anyPortOnALoopbackName() {
        let guardrail = DevHostGuard(allowedHosts: ["devbox.internal"])
        for host in ["localhost:8080", "LocalHost:9999", "localhost", "127.0.0.1:1", "[::1]:65535", "devbox.internal:8474"] {
            #expect(guardrail.isAllowed(host), "Host: \(host)")
        }
        for host in ["127.0.0.1.nip.io:8080", "attacker.example:8080", "localhost:abc", "localhost:+80", "localhost:70000", "[::1]x"] {
            #expect(!guardrail.isAllowed(host), "Host: \(host)")
        }
    }

    @Test("a request through a loopback proxy on another port reaches the API; a foreign Host through it still answers 421")
    func throughALoopbackProxy() async throws {
        let app = try await buildApplication(.testing())
        try await app.test(.live) { client in
            // Given the server behind a forwarder on a port of its own (as Toxiproxy or ssh -L)
            let serverPort = try #require(client.port)
            let student = try await client.caller(.demoStudent)
            let proxy = try LoopbackForwarder(to: serverPort)
            defer { proxy.stop() }
            #expect(proxy.port != serverPort)

            // When a client sends the Host of the proxy's own port, the API answers
            for host in ["localhost:\(proxy.port)", "127.0.0.1:\(proxy.port)"] {
                let connection = try RawConnection(port: proxy.port)
                let status = try await connection.exchange(
                    "GET /v1/auth/me HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(student.token)\r\nConnection: close\r\n\r\n")
                #expect(status == 200, "Host: \(host)")
            }

            // And a foreign name through the same proxy is still refused
            let connection = try RawConnection(port: proxy.port)
            let status = try await connection.exchange(
                "GET /health HTTP/1.1\r\nHost: attacker.example:\(proxy.port)\r\nConnection: close\r\n\r\n")
            #expect(status == 421)
        }
    }

    @Test("/__dev answers only to loopback peers")
    func devEndpointsNeedALoopbackPeer() {
        #expect(DevHostGuard.isLoopbackPeer("127.0.0.1"))
        #expect(DevHostGuard.isLoopbackPeer("::1"))
        #expect(!DevHostGuard.isLoopbackPeer("192.168.1.20"))
        #expect(!DevHostGuard.isLoopbackPeer("127.evil.example"))
    }
}
