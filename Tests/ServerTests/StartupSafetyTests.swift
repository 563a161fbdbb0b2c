import Foundation
import Testing

@testable import EduGoServer

/// What the server refuses before it opens a port: dev mode and published demo accounts beyond loopback.
@Suite(.timeLimit(.minutes(3))) struct StartupSafetyTests {
    static func configuration(host: String, devMode: Bool, seed: Bool, storage: ServerConfiguration.Storage = .inMemory)
        -> ServerConfiguration
    {
        var configuration = ServerConfiguration.testing()
        configuration.host = host
        configuration.devMode = devMode
        if !devMode { configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode }
        configuration.seedDemoData = seed
        configuration.storage = storage
        return configuration
    }

    @Test("loopback is decided by parsing the address, not by its prefix")
    func loopbackParsing() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "::ffff:127.0.0.1"] {
            #expect(HostAddress.isLoopback(host), "\(host)")
        }
        for host in ["127.evil.example", "127.0.0.1.nip.io", "0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "", "::2"] {
            #expect(!HostAddress.isLoopback(host), "\(host)")
        }
    }

    @Test("dev mode on a non-loopback host refuses to start, naming --no-dev")
    func devModeRefusedOnNetwork() async throws {
        for host in ["0.0.0.0", "127.evil.example"] {
            await #expect(throws: StartupError.devModeOnNetwork(host: host)) {
                _ = try await buildApplication(Self.configuration(host: host, devMode: true, seed: false))
            }
        }
        #expect(StartupError.devModeOnNetwork(host: "0.0.0.0").description.contains("--no-dev"))
    }

    @Test("seeding the demo tenants on a non-loopback host refuses to start")
    func demoSeedRefusedOnNetwork() async throws {
        await #expect(throws: StartupError.demoAccountsOnNetwork(host: "0.0.0.0")) {
            _ = try await buildApplication(Self.configuration(host: "0.0.0.0", devMode: false, seed: true))
        }
    }

    @Test("a data directory holding the demo accounts refuses a non-loopback host until --drop-demo-tenants")
    func existingDemoAccountsRefusedOnNetwork() async throws {
        try await withTemporaryDirectory { directory in
            // Given a data directory seeded on loopback
            _ = try await buildApplication(
                Self.configuration(host: "127.0.0.1", devMode: true, seed: true, storage: .directory(directory)))

            // When it is served on 0.0.0.0 without dev mode or seeding, it refuses, naming the flag
            let network = Self.configuration(host: "0.0.0.0", devMode: false, seed: false, storage: .directory(directory))
            await #expect(throws: StartupError.demoAccountsOnNetwork(host: "0.0.0.0")) {
                _ = try await buildApplication(network)
            }
            #expect(StartupError.demoAccountsOnNetwork(host: "0.0.0.0").description.contains("--drop-demo-tenants"))

            // And with the demo tenants dropped it starts, without them
            var dropping = network
            dropping.dropDemoTenants = true
            try await withServer(dropping) { client in
                try expectProblem(try await client.login(.demoAdmin), .notFound, "tenant_not_found")
            }
        }
    }

    @Test("without dev mode and without seeding, the demo logins do not exist")
    func noDemoWithoutDevMode() async throws {
        try await withServer(Self.configuration(host: "127.0.0.1", devMode: false, seed: false)) { client in
            try expectProblem(try await client.login(.demoAdmin), .notFound, "tenant_not_found")
        }
    }

    // MARK: The bcrypt cost

    @Test("a bcrypt cost below 10 outside dev mode refuses to start, naming --password-hash-cost; 10 starts")
    func weakHashCostRefusedOutsideDevMode() async throws {
        var weak = Self.configuration(host: "127.0.0.1", devMode: false, seed: false)
        weak.passwordHashCost = 9
        await #expect(throws: StartupError.weakPasswordHashCost(cost: 9)) {
            _ = try await buildApplication(weak)
        }
        #expect(StartupError.weakPasswordHashCost(cost: 9).description.contains("--password-hash-cost 9 is below 10"))

        var enough = weak
        enough.passwordHashCost = 10
        try await withServer(enough) { client in
            let health = try await client.send(.get, "/health")
            #expect(health.status == .ok)
        }
    }

    @Test("in dev mode the cheapest bcrypt cost, 4, starts and its accounts sign in")
    func cheapHashCostInDevMode() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.passwordHashCost = 4
        try await withServer(configuration) { client in
            let login = try await client.login(.demoStudent)
            #expect(login.status == .ok)
        }
    }

    @Test("a cost bcrypt cannot use refuses to start instead of trapping on the first hash")
    func hashCostOutOfRange() async throws {
        for cost: UInt8 in [0, 3, 32] {
            var configuration = ServerConfiguration.testing()
            configuration.passwordHashCost = cost
            await #expect(throws: StartupError.passwordHashCostOutOfRange(cost: cost)) {
                _ = try await buildApplication(configuration)
            }
        }
    }

    // MARK: The signing key

    static func keyFile(in directory: URL) -> URL {
        directory.appendingPathComponent("keys/es256-signing-key.pem")
    }

    static func leftovers(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("keys").path)) ?? []
        return names.filter { $0.hasSuffix(".tmp") }
    }

    @Test("a missing signing key is created, mode 0600, with no temporary file left")
    func missingKeyIsCreated() throws {
        try withTemporaryDirectorySync { directory in
            _ = try SigningKey.loadOrCreate(storage: .directory(directory))
            let attributes = try FileManager.default.attributesOfItem(atPath: Self.keyFile(in: directory).path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(Self.leftovers(in: directory).isEmpty)
        }
    }

    @Test("a signing key that exists but is not a key refuses to start, says why, and is left as it was")
    func corruptKeyRefuses() throws {
        try withTemporaryDirectorySync { directory in
            let file = Self.keyFile(in: directory)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("not a key".utf8).write(to: file)

            #expect {
                _ = try SigningKey.loadOrCreate(storage: .directory(directory))
            } throws: { error in
                guard case StartupError.unreadableSigningKey(let path, let reason) = error else { return false }
                return path == file.path && reason.contains("not a PEM ES256 private key")
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == "not a key")
            #expect(Self.leftovers(in: directory).isEmpty)
        }
    }

    @Test("a signing key path that cannot be read refuses to start instead of writing a new key beside it")
    func unreadableKeyRefuses() throws {
        try withTemporaryDirectorySync { directory in
            // A directory where the key file should be: it exists and cannot be read as a file
            // (permission bits cannot be used: the tests may run as root).
            let file = Self.keyFile(in: directory)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)

            #expect {
                _ = try SigningKey.loadOrCreate(storage: .directory(directory))
            } throws: { error in
                guard case StartupError.unreadableSigningKey(_, let reason) = error else { return false }
                return reason.contains("not a regular file")
            }
            #expect(Self.leftovers(in: directory).isEmpty)
        }
    }
}

/// Runs `body` with a fresh temporary directory that is removed afterwards.
func withTemporaryDirectorySync<Value>(_ body: (URL) throws -> Value) throws -> Value {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("edugo-tests-\(UUID().uuidString.lowercased())", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}
