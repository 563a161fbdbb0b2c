import Foundation
import Testing

@testable import EduGoServer

/// Process flags of the real `edugo-server` binary: what it seeds, what it refuses to start with.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ProcessFlagTests {
    @Test("with --no-dev the binary seeds no demo tenant: the published admin login does not work")
    func noDevSeedsNothing() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(dataDirectory: directory, arguments: ["--no-dev"])
            let client = LiveClient(baseURL: server.baseURL)
            defer { client.session.invalidateAndCancel() }
            let login = try await client.login(.demoAdmin)
            await server.stop()
            #expect(login.status == 404, "body: \(login.text)")
            #expect(!server.stdout.value.contains("Demo-Admin-2026"))
        }
    }

    @Test("in dev mode the startup banner prints the dev console's URL beside the mailbox and tenants endpoints")
    func bannerPrintsDevConsole() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(dataDirectory: directory, arguments: [])
            await server.stop()
            #expect(server.stdout.value.contains("Dev console: http://127.0.0.1:\(server.port)/__dev/\n"), "stdout: \(server.stdout.value)")
        }
    }

    @Test("with --seed FILE the banner names the file and lists no demo logins, since no demo tenant was seeded")
    func seedFileBannerListsNoDemoLogins() async throws {
        try await withTemporaryDirectory { directory in
            let seed = directory.appendingPathComponent("seed.json")
            try Data(#"{"tenants": [{"id": "school", "users": [{"email": "t@school.test", "password": "Teacher-Pass-1", "role": "teacher"}]}]}"#.utf8)
                .write(to: seed)
            let data = directory.appendingPathComponent("data")
            let server = try await ServerProcess.launch(dataDirectory: data, arguments: ["--seed", seed.path])
            let client = LiveClient(baseURL: server.baseURL)
            defer { client.session.invalidateAndCancel() }
            let demo = try await client.login(.demoAdmin)
            await server.stop()
            #expect(demo.status == 404, "body: \(demo.text)")
            #expect(server.stdout.value.contains("Seed file: \(seed.path)"), "stdout: \(server.stdout.value)")
            #expect(!server.stdout.value.contains("Demo logins"), "stdout: \(server.stdout.value)")
        }
    }

    @Test("the binary refuses 0.0.0.0 while the demo tenants exist, naming --drop-demo-tenants, and starts once they are dropped")
    func refusesNetworkHostWithDemoAccounts() async throws {
        try await withTemporaryDirectory { directory in
            // Given a data directory the dev-mode server seeded
            let seeded = try await ServerProcess.launch(dataDirectory: directory)
            #expect(await seeded.stop())

            // When it is started on 0.0.0.0
            let refused = try await ServerProcess.runToExit(
                ["--host", "0.0.0.0", "--port", "0", "--data-dir", directory.path])

            // Then it exits with an error that names the flag removing them
            #expect(refused.status != nil && refused.status != 0)
            #expect(refused.output.contains("--drop-demo-tenants"), "output: \(refused.output)")

            // And with --drop-demo-tenants it starts, without the demo logins
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--host", "0.0.0.0", "--drop-demo-tenants"])
            let client = LiveClient(baseURL: server.baseURL)
            defer { client.session.invalidateAndCancel() }
            let login = try await client.login(.demoAdmin)
            await server.stop()
            #expect(login.status == 404, "body: \(login.text)")
        }
    }

    @Test("--dev on a non-loopback host refuses to start")
    func devRefusedOnNetworkHost() async throws {
        try await withTemporaryDirectory { directory in
            let refused = try await ServerProcess.runToExit(
                ["--host", "0.0.0.0", "--port", "0", "--dev", "--data-dir", directory.path])
            #expect(refused.status != nil && refused.status != 0)
            #expect(refused.output.contains("dev mode"), "output: \(refused.output)")
        }
    }

    @Test("--password-hash-cost 4 in dev mode is printed in the banner; outside dev mode the binary refuses it, naming the flag")
    func passwordHashCostFlag() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(dataDirectory: directory, arguments: ["--password-hash-cost", "4"])
            let banner = server.stdout.value
            await server.stop()
            #expect(banner.contains("Password hashing: bcrypt cost 4 (dev mode only"), "banner: \(banner)")

            let refused = try await ServerProcess.runToExit(
                ["--port", "0", "--no-dev", "--password-hash-cost", "8", "--data-dir", directory.path])
            #expect(refused.status != nil && refused.status != 0)
            #expect(refused.output.contains("--password-hash-cost 8 is below 10"), "output: \(refused.output)")
        }
    }

    @Test("a signing key file that exists but is not a key: the binary refuses to start, says why, leaves no .tmp")
    func corruptSigningKeyRefusesToStart() async throws {
        try await withTemporaryDirectory { directory in
            let keys = directory.appendingPathComponent("keys")
            try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
            try Data("garbage".utf8).write(to: keys.appendingPathComponent("es256-signing-key.pem"))

            let refused = try await ServerProcess.runToExit(["--port", "0", "--data-dir", directory.path])

            #expect(refused.status != nil && refused.status != 0)
            #expect(refused.output.contains("signing key"), "output: \(refused.output)")
            #expect(refused.output.contains("not a PEM ES256 private key"), "output: \(refused.output)")
            let names = try FileManager.default.contentsOfDirectory(atPath: keys.path)
            #expect(names == ["es256-signing-key.pem"])
        }
    }
}
