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
        try await withServer(configuration) { client in
            let response = try await client.send(.get, "/health", headers: [.host: "api.example.com"])
            #expect(response.status == .ok)
        }
    }

    @Test("once the port is known, a loopback name with another port is refused")
    func portMustBeTheBoundOne() {
        let port = BoundPort()
        let guardrail = DevHostGuard(allowedHosts: [], boundPort: port)
        #expect(guardrail.isAllowed("localhost:9999"))
        port.set(8080)
        #expect(guardrail.isAllowed("localhost:8080"))
        #expect(guardrail.isAllowed("[::1]:8080"))
        #expect(!guardrail.isAllowed("localhost:9999"))
        #expect(!guardrail.isAllowed("127.0.0.1.nip.io:8080"))
        #expect(!guardrail.isAllowed("localhost:abc"))
    }

    @Test("/__dev answers only to loopback peers")
    func devEndpointsNeedALoopbackPeer() {
        #expect(DevHostGuard.isLoopbackPeer("127.0.0.1"))
        #expect(DevHostGuard.isLoopbackPeer("::1"))
        #expect(!DevHostGuard.isLoopbackPeer("192.168.1.20"))
        #expect(!DevHostGuard.isLoopbackPeer("127.evil.example"))
    }
}
