import ArgumentParser
import EduGoServer
import Foundation
import Logging

/// `edugo-server`: parses flags (each with an `EDUGO_*` environment fallback), bootstraps
/// logging and runs the server until SIGINT/SIGTERM.
@main
struct EduGoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edugo-server",
        abstract: "Runs the EduGo backend on an embedded, seeded SQLite store.",
        discussion: """
            Every option can also be set with an environment variable (shown in brackets); a flag
            on the command line wins. Dev mode (the /__dev endpoints and the demo-login banner) is
            on by default only when bound to a loopback address.
            """)

    @Option(help: "Interface to bind. [EDUGO_HOST] (default: 127.0.0.1)")
    var host: String?

    @Option(help: "Port to bind; 0 picks a free one and prints it. [EDUGO_PORT] (default: 8080)")
    var port: Int?

    @Option(name: .customLong("data-dir"), help: "Directory for databases and signing keys. [EDUGO_DATA_DIR] (default: ./.edugo)")
    var dataDirectory: String?

    @Flag(name: .customLong("in-memory"), help: "Keep everything in memory; nothing survives the process. [EDUGO_IN_MEMORY=1]")
    var inMemory = false

    @Flag(inversion: .prefixedNo, help: "Enable the /__dev endpoints. [EDUGO_DEV=1|0] (default: on for loopback hosts)")
    var dev: Bool?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical. [EDUGO_LOG_LEVEL] (default: info)")
    var logLevel: String?

    @Option(
        name: .customLong("rate-limit-multiplier"),
        help: "Multiply every auth rate limit (for load tests and fuzzing). [EDUGO_RATE_LIMIT_MULTIPLIER] (default: 1)")
    var rateLimitMultiplier: Int?

    // MARK: Observability (issue 14)

    @Option(name: .customLong("log-format"), help: "text or json (one JSON object per line). [EDUGO_LOG_FORMAT] (default: text)")
    var logFormat: String?

    @Flag(inversion: .prefixedNo, help: "Serve GET /metrics (Prometheus). [EDUGO_METRICS=1|0] (default: on in dev mode)")
    var metrics: Bool?

    @Option(
        name: .customLong("metrics-token"),
        help: "Bearer token required by GET /metrics; outside dev mode /metrics is served only with one. [EDUGO_METRICS_TOKEN]")
    var metricsToken: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let host = self.host ?? environment["EDUGO_HOST"] ?? "127.0.0.1"
        let port = try self.port ?? environment["EDUGO_PORT"].map(Self.parsePort) ?? 8080
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        let levelName = self.logLevel ?? environment["EDUGO_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ValidationError("Unknown log level '\(levelName)'.")
        }
        let inMemory = self.inMemory || Self.isTrue(environment["EDUGO_IN_MEMORY"])
        let dataDirectory = URL(
            fileURLWithPath: self.dataDirectory ?? environment["EDUGO_DATA_DIR"] ?? ".edugo", isDirectory: true
        ).standardizedFileURL
        let multiplier = try self.rateLimitMultiplier ?? environment["EDUGO_RATE_LIMIT_MULTIPLIER"].map(Self.parseMultiplier) ?? 1
        guard (1...1_000_000).contains(multiplier) else {
            throw ValidationError("--rate-limit-multiplier must be between 1 and 1000000.")
        }
        let devMode = self.dev ?? environment["EDUGO_DEV"].map(Self.isTrue) ?? Self.isLoopback(host)

        let format = (self.logFormat ?? environment["EDUGO_LOG_FORMAT"] ?? "text").lowercased()
        guard ["text", "json"].contains(format) else {
            throw ValidationError("--log-format must be text or json.")
        }
        LoggingSystem.bootstrap { label in
            if format == "json" {
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let storage: ServerConfiguration.Storage = inMemory ? .inMemory : .directory(dataDirectory)
        let configuration = ServerConfiguration(
            host: host, port: port, storage: storage, devMode: devMode, logLevel: level,
            rateLimits: RateLimits.standard.scaled(by: multiplier),
            onServerRunning: { boundPort in
                Self.printBanner(host: host, port: boundPort, storage: storage, devMode: devMode)
            })
        var served = configuration
        served.metricsEnabled = self.metrics ?? environment["EDUGO_METRICS"].map(Self.isTrue)
        served.metricsToken = (self.metricsToken ?? environment["EDUGO_METRICS_TOKEN"]).flatMap { $0.isEmpty ? nil : $0 }
        let app = try await buildApplication(served)
        try await app.runService()
    }

    private static func printBanner(host: String, port: Int, storage: ServerConfiguration.Storage, devMode: Bool) {
        let displayHost = host.contains(":") ? "[\(host)]" : host
        var lines = ["EduGo server listening on http://\(displayHost):\(port)"]
        switch storage {
        case .directory(let url): lines.append("Data directory: \(url.path)")
        case .inMemory: lines.append("Data directory: none (in-memory)")
        }
        if devMode {
            lines.append("Dev mode: on (/__dev/mailbox, /__dev/tenants)")
            lines.append("Demo logins (send X-Tenant-ID with the tenant):")
            for account in DemoAccount.seeded {
                lines.append("  \(account.tenant)\t\(account.role)\t\(account.email)\t\(account.password)")
            }
        } else {
            lines.append("Dev mode: off")
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    private static func parsePort(_ value: String) throws -> Int {
        guard let port = Int(value) else { throw ValidationError("EDUGO_PORT must be a number.") }
        return port
    }

    private static func parseMultiplier(_ value: String) throws -> Int {
        guard let multiplier = Int(value) else { throw ValidationError("EDUGO_RATE_LIMIT_MULTIPLIER must be a number.") }
        return multiplier
    }

    private static func isTrue(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
