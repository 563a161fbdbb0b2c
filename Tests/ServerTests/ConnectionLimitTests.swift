import Foundation
import Testing

@testable import EduGoServer

/// Sockets and descriptors of the real `edugo-server` binary.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ConnectionLimitTests {
    /// Runs `body` and always ends the server: SIGTERM when it returns, SIGKILL when it throws.
    func running(_ server: ServerProcess, _ body: (LiveClient) async throws -> Void) async throws {
        let client = LiveClient(baseURL: server.baseURL)
        defer { client.session.invalidateAndCancel() }
        do {
            try await body(client)
            await server.stop()
        } catch {
            await server.kill()
            throw error
        }
    }

    @Test("a request whose head never completes is closed within --idle-timeout; normal requests keep being served")
    func halfSentRequestIsClosed() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(dataDirectory: directory, arguments: ["--idle-timeout", "2"])
            try await running(server) { client in

                // Given 40 connections that send half a request head and then nothing
                let stalled = try (0..<40).map { _ in
                    let connection = try RawConnection(port: server.port)
                    try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                    return connection
                }

                // Then normal requests are still served meanwhile
                #expect(try await client.send("GET", "/health").status == 200)

                // And each stalled connection is closed within the timeout (plus slack)
                for connection in stalled {
                    let outcome = connection.readUntilClosed(timeout: .seconds(8))
                    #expect(outcome.closed, "still open; received: \(outcome.text)")
                }
                #expect(try await client.send("GET", "/health").status == 200)
            }
        }
    }

    @Test("300 dev tenants under ulimit -n 256: all are created and the first and the last still sign in")
    func manyTenantsUnderADescriptorLimit() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--rate-limit-multiplier", "10"], fileLimit: 256)
            try await running(server) { client in

                // Given 300 dev tenants, each with its own database
                var tenants: [DevTenantBody] = []
                for index in 0..<300 {
                    let response = try await client.send("POST", "/__dev/tenants")
                    try #require(response.status == 201, "tenant #\(index) answered \(response.status): \(response.text)")
                    tenants.append(try response.decode(DevTenantBody.self))
                }

                // Then the first and the last tenant's admins both sign in
                for tenant in [try #require(tenants.first), try #require(tenants.last)] {
                    let admin = try #require(tenant.accounts.first { $0.role == "admin" })
                    let login = try await client.login(
                        Credentials(email: admin.email, password: admin.password, tenant: tenant.tenantId))
                    #expect(login.status == 200, "tenant \(tenant.tenantId): \(login.text)")
                }
            }
        }
    }
}

struct DevTenantBody: Decodable {
    struct Account: Decodable {
        var email: String
        var password: String
        var role: String
    }

    var tenantId: String
    var accounts: [Account]
}
