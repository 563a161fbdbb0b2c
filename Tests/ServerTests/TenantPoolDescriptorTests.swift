import Foundation
import Testing

@testable import EduGoServer

/// Issue 43 item 4: one pool per file, leased, under a low descriptor limit, with event streams open.
///
/// Before the fix, each open event stream held its tenant's database for as long as it stayed
/// open: every tenant with a stream kept its files open past the open-tenant cap, and the next
/// request for it opened a second pool on the same file.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct TenantPoolDescriptorTests {
    @Test("6 tenants with an open event stream each under ulimit -n 64 (a cap of 2 open tenants): no 500, and at most 2 tenants' files stay open")
    func streamsHoldNoPool() async throws {
        try await withTemporaryDirectory { directory in
            // Given a server under ulimit -n 64, which keeps at most two tenant databases open
            #expect(DescriptorBudget.openTenantCap(configured: 32, limit: 64) == 2)
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--rate-limit-multiplier", "10"], fileLimit: 64)
            let client = LiveClient(baseURL: server.baseURL)
            defer { client.session.invalidateAndCancel() }
            do {
                // And six tenants, each with an admin's event stream open
                var streams: [RawConnection] = []
                var tokens: [String: String] = [:]
                for index in 0..<6 {
                    let created = try await client.send("POST", "/__dev/tenants")
                    try #require(created.status == 201, "tenant #\(index): \(created.status) \(created.text)")
                    let tenant = try created.decode(DevTenantBody.self)
                    let admin = try #require(tenant.accounts.first { $0.role == "admin" })
                    let login = try await client.login(
                        Credentials(email: admin.email, password: admin.password, tenant: tenant.tenantId))
                    try #require(login.status == 200, "\(tenant.tenantId): \(login.text)")
                    let token = try #require(try login.decode(TokenBody.self).accessToken)
                    tokens[tenant.tenantId] = token
                    let stream = try RawConnection(port: server.port)
                    let status = try await stream.exchange(
                        "GET /v1/sync/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n")
                    try #require(status == 200, "stream of \(tenant.tenantId)")
                    streams.append(stream)
                }

                // When every tenant is read again while the streams stay open
                for (tenant, token) in tokens {
                    let courses = try await client.send("GET", "/v1/courses?limit=5", bearer: token)
                    #expect(courses.status == 200, "\(tenant): \(courses.status) \(courses.text)")
                }

                // Then the server holds the files of at most two tenants (the cap): the streams hold none
                let open = Self.openTenantFiles(of: server.process.processIdentifier)
                #expect(open.count <= 2, "tenant files open: \(open.sorted())")
                _ = streams
                await server.stop()
            } catch {
                await server.kill()
                throw error
            }
        }
    }

    /// The tenant database files (`tenants/<id>.sqlite`, not their `-wal` or `-shm`) that process
    /// `pid` has open, by tenant id.
    static func openTenantFiles(of pid: Int32) -> Set<String> {
        let folder = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var tenants: Set<String> = []
        for descriptor in descriptors {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(descriptor)") else { continue }
            let parts = target.split(separator: "/")
            guard parts.count >= 2, parts[parts.count - 2] == "tenants", target.hasSuffix(".sqlite") else { continue }
            tenants.insert(String(parts[parts.count - 1].dropLast(".sqlite".count)))
        }
        return tenants
    }

    private struct TokenBody: Decodable {
        var accessToken: String?
    }
}
