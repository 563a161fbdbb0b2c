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
                    let outcome = await connection.readUntilClosed(timeout: .seconds(8))
                    #expect(outcome.closed, "still open; received: \(outcome.text)")
                }
                #expect(try await client.send("GET", "/health").status == 200)
            }
        }
    }

    @Test("a request whose body stops arriving is closed within --idle-timeout, whether or not its handler reads it")
    func stalledBodyIsClosed() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(dataDirectory: directory, arguments: ["--idle-timeout", "2"])
            try await running(server) { client in

                // Given a login whose body declares 100 bytes and sends 10, read by its handler
                let reading = try RawConnection(port: server.port)
                try reading.send(
                    "POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Tenant-ID: demo\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":")
                // And a GET whose handler never reads the 50 bytes its head announces
                let ignoring = try RawConnection(port: server.port)
                try ignoring.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\n\r\nabc")

                // Then both connections are closed within the timeout (plus slack)
                let read = await reading.readUntilClosed(timeout: .seconds(8))
                #expect(read.closed, "still open; received: \(read.text)")
                let ignored = await ignoring.readUntilClosed(timeout: .seconds(8))
                #expect(ignored.closed, "still open; received: \(ignored.text)")

                // And normal requests are served meanwhile and after
                #expect(try await client.send("GET", "/health").status == 200)
            }
        }
    }

    @Test("--max-connections: the connection over the cap is served only once another one closes")
    func connectionCap() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--max-connections", "3", "--idle-timeout", "60"])
            try await running(server) { _ in

                // Given three kept-alive connections, each accepted and served once
                // (one at a time: the server checks the cap between accept batches)
                var held: [RawConnection] = []
                for _ in 0..<3 {
                    let connection = try RawConnection(port: server.port)
                    try #require(try await connection.exchange("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") == 200)
                    held.append(connection)
                }

                // When a fourth sends a whole request
                let waiting = try RawConnection(port: server.port)
                try waiting.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

                // Then it gets no answer while the cap is reached
                #expect(await waiting.status(within: .seconds(2)) == nil)

                // And it is answered as soon as one held connection closes
                held.removeFirst()
                #expect(await waiting.status(within: .seconds(10)) == 200)
                _ = held
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

    @Test("40 dev tenants under ulimit -n 64: none answers 500, and the first and the last still sign in")
    func tenantsUnderALowDescriptorLimit() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--rate-limit-multiplier", "10"], fileLimit: 64)
            try await running(server) { client in
                var tenants: [DevTenantBody] = []
                for index in 0..<40 {
                    let response = try await client.send("POST", "/__dev/tenants")
                    try #require(response.status == 201, "tenant #\(index) answered \(response.status): \(response.text)")
                    tenants.append(try response.decode(DevTenantBody.self))
                }
                for tenant in [try #require(tenants.first), try #require(tenants.last)] {
                    let admin = try #require(tenant.accounts.first { $0.role == "admin" })
                    let login = try await client.login(
                        Credentials(email: admin.email, password: admin.password, tenant: tenant.tenantId))
                    #expect(login.status == 200, "tenant \(tenant.tenantId): \(login.text)")
                }
            }
        }
    }

    @Test("under ulimit -n 80, 70 idle connections leave descriptors for a new tenant's pool, and the server does not spin")
    func idleConnectionsLeaveDescriptorsForTenants() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--idle-timeout", "60"], fileLimit: 80)
            try await running(server) { _ in
                // Given a connection accepted and served first
                let control = try RawConnection(port: server.port)
                try #require(try await control.exchange("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") == 200)

                // When 70 more connect and stay silent
                let idle = try (0..<70).map { _ in try RawConnection(port: server.port) }
                try await Task.sleep(for: .seconds(1))

                // Then the server uses little CPU meanwhile (an accept loop out of descriptors spun)
                let before = try #require(server.cpuSeconds)
                try await Task.sleep(for: .seconds(3))
                let used = try #require(server.cpuSeconds) - before
                #expect(used < 1.5, "the server used \(used) s of CPU in 3 s while idle connections waited")

                // And a new tenant, whose pool needs descriptors, is created over the first connection
                let created = try await control.exchange(
                    "POST /__dev/tenants HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n", timeout: .seconds(20))
                #expect(created == 201)
                _ = idle
            }
        }
    }

    @Test("the connection cap follows the descriptor limit: what the tenants' quarter leaves, less 16 for the rest")
    func connectionCapFollowsTheLimit() {
        #expect(DescriptorBudget.connectionCap(configured: 512, limit: 80) == 16)
        #expect(DescriptorBudget.connectionCap(configured: 512, limit: 1024) == 240)
        #expect(DescriptorBudget.connectionCap(configured: 512, limit: 65536) == 512)
        #expect(DescriptorBudget.connectionCap(configured: 3, limit: 80) == 3)
        #expect(DescriptorBudget.connectionCap(configured: 512, limit: nil) == 512)
    }

    @Test("the open-tenant cap follows the descriptor limit: a quarter (at least 32) kept back, 15 per tenant")
    func openTenantCapFollowsTheLimit() {
        #expect(DescriptorBudget.openTenantCap(configured: 32, limit: 64) == 2)
        #expect(DescriptorBudget.openTenantCap(configured: 32, limit: 256) == 12)
        #expect(DescriptorBudget.openTenantCap(configured: 32, limit: 4096) == 32)
        #expect(DescriptorBudget.openTenantCap(configured: 32, limit: 16) == 1)
        #expect(DescriptorBudget.openTenantCap(configured: 32, limit: nil) == 32)
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
