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
            Every option can also be set with an environment variable (shown in brackets); a flag \
            on the command line wins. Dev mode (the /__dev endpoints and the demo-login banner) is \
            on by default only when bound to a loopback address.
            """,
        subcommands: [ExportCommand.self, ImportCommand.self])

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

    @Flag(
        name: .customLong("journal-bodies"),
        help: "Dev mode: the request journal keeps JSON request bodies, passwords and tokens replaced. [EDUGO_JOURNAL_BODIES=1]")
    var journalBodies = false

    // MARK: Hardening

    @Flag(
        name: .customLong("seed-demo"),
        help: "Seed the demo tenants (published passwords) even outside dev mode; loopback hosts only. [EDUGO_SEED_DEMO=1] (default: only in dev mode)")
    var seedDemo = false

    @Option(
        name: .customLong("seed"),
        help: "A seed file (JSON) of tenants, users, courses, lessons, enrollments and progress to add at start, instead of the demo data in dev mode; applying it again changes nothing. Loopback hosts only. [EDUGO_SEED]")
    var seedFile: String?

    @Flag(
        name: .customLong("drop-demo-tenants"),
        help: "Delete every tenant in which a published password still signs in (demo, acme, test tenants of POST /__dev/tenants) at start. [EDUGO_DROP_DEMO_TENANTS=1]")
    var dropDemoTenants = false

    @Option(
        name: .customLong("allowed-host"),
        help: "A further Host name a dev-mode server answers to (repeatable); any other gets 421. [EDUGO_ALLOWED_HOSTS, comma-separated]")
    var allowedHosts: [String] = []

    @Flag(
        name: .customLong("trust-forwarded-proto"),
        help: "Behind a TLS-terminating proxy: X-Forwarded-Proto: https counts as TLS (enables Strict-Transport-Security). [EDUGO_TRUST_FORWARDED_PROTO=1]")
    var trustForwardedProto = false

    @Option(
        name: .customLong("trusted-proxy"),
        help: "A reverse proxy (CIDR, repeatable) whose X-Forwarded-For names the client for rate limits. [EDUGO_TRUSTED_PROXIES, comma-separated]")
    var trustedProxies: [String] = []

    @Option(
        name: .customLong("max-session-age"),
        help: "Seconds a session lives after sign-in, however often it is refreshed. [EDUGO_MAX_SESSION_AGE] (default: 7776000, 90 days)")
    var maxSessionAge: Int?

    @Option(
        name: .customLong("idle-timeout"),
        help: "Seconds before a connection with no request in progress, an unfinished request head or an answer making no progress is closed; 0 never. [EDUGO_IDLE_TIMEOUT] (default: 30)")
    var idleTimeout: Int?

    @Option(
        name: .customLong("max-connections"),
        help: "Most connections served at once; more wait in the backlog. [EDUGO_MAX_CONNECTIONS] (default: 512)")
    var maxConnections: Int?

    @Option(
        name: .customLong("max-connection-age"),
        help: "With TLS and HTTP/2: seconds before a connection is sent GOAWAY (closed one idle timeout later whatever the client does); 0 never. [EDUGO_MAX_CONNECTION_AGE] (default: 3600)")
    var maxConnectionAge: Int?

    @Option(
        name: .customLong("change-retention"),
        help: "Seconds the change feed keeps changes and deletions; an older cursor answers 410 and the client syncs from scratch. [EDUGO_CHANGE_RETENTION] (default: 2592000, 30 days)")
    var changeRetention: Int?

    @Option(
        name: .customLong("max-event-streams"),
        help: "Most live event streams (GET /v1/sync/events) held at once; one more answers 503. Each user holds at most 5. [EDUGO_MAX_EVENT_STREAMS] (default: 10000)")
    var maxEventStreams: Int?

    @Option(
        name: .customLong("password-hash-cost"),
        help: "bcrypt cost (4 to 31); below 10 only in dev mode, for fast test accounts. [EDUGO_PASSWORD_HASH_COST] (default: 12)")
    var passwordHashCost: Int?

    @Option(
        name: .customLong("max-snapshots"),
        help: "Dev mode: most snapshots kept per tenant (POST /__dev/tenants/{id}/snapshots); one more answers 409. [EDUGO_MAX_SNAPSHOTS] (default: 20)")
    var maxSnapshots: Int?

    // MARK: Export and import

    @Option(
        name: .customLong("import"),
        help: ArgumentHelp(
            "Before serving, replace the data directory's data with this export (checked first; see `edugo-server import`). [EDUGO_IMPORT]",
            valueName: "dir"))
    var importFrom: String?

    @Option(
        name: .customLong("export-on-exit"),
        help: ArgumentHelp(
            "On SIGINT/SIGTERM, once in-flight requests finished, export the data to this folder (see `edugo-server export`). [EDUGO_EXPORT_ON_EXIT]",
            valueName: "dir"))
    var exportOnExit: String?

    // MARK: Lesson media

    @Option(
        name: .customLong("max-media-size"),
        help: "Largest lesson media upload in bytes; a larger one answers 413. [EDUGO_MAX_MEDIA_SIZE] (default: 536870912, 512 MiB)")
    var maxMediaSize: Int?

    // MARK: TLS

    @Option(name: .customLong("tls-cert"), help: "Serve HTTPS with this PEM certificate chain (leaf first); needs --tls-key. [EDUGO_TLS_CERT]")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert. [EDUGO_TLS_KEY]")
    var tlsKey: String?

    @Flag(
        name: .customLong("tls-dev"),
        help: "Dev mode only: serve HTTPS with a self-signed certificate made on first start and kept in <data-dir>/tls/; prints its pin. [EDUGO_TLS_DEV=1]")
    var tlsDevelopment = false

    @Flag(
        name: .customLong("tls-rotate"),
        help: "With --tls-dev: retire the current key; the backup key (whose pin was printed as backup) becomes current.")
    var tlsRotate = false

    @Flag(inversion: .prefixedNo, help: "With TLS: offer HTTP/2 by ALPN besides HTTP/1.1. [EDUGO_HTTP2=1|0] (default: on)")
    var http2: Bool?

    // MARK: Logging

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical. [EDUGO_LOG_LEVEL] (default: info)")
    var logLevel: String?

    @Option(
        name: .customLong("rate-limit-multiplier"),
        help: "Multiply every auth rate limit (for load tests and fuzzing). [EDUGO_RATE_LIMIT_MULTIPLIER] (default: 1)")
    var rateLimitMultiplier: Int?

    // MARK: Observability

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
        let files = try tlsFiles(environment: environment)
        let tlsDevelopment = self.tlsDevelopment || Self.isTrue(environment["EDUGO_TLS_DEV"])
        let port = try self.port ?? environment["EDUGO_PORT"].map(Self.parsePort) ?? (files != nil || tlsDevelopment ? 8443 : 8080)
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        let levelName = self.logLevel ?? environment["EDUGO_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ValidationError("Unknown log level '\(levelName)'.")
        }
        let inMemory = self.inMemory || Self.isTrue(environment["EDUGO_IN_MEMORY"])
        let dataDirectory = DataDirectoryOption.resolve(self.dataDirectory)
        let multiplier = try self.rateLimitMultiplier ?? environment["EDUGO_RATE_LIMIT_MULTIPLIER"].map(Self.parseMultiplier) ?? 1
        guard (1...1_000_000).contains(multiplier) else {
            throw ValidationError("--rate-limit-multiplier must be between 1 and 1000000.")
        }
        let devMode = self.dev ?? environment["EDUGO_DEV"].map(Self.isTrue) ?? ServerConfiguration.isLoopback(host: host)
        let seedFile = (self.seedFile ?? environment["EDUGO_SEED"]).flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        let seedDemo = (devMode && seedFile == nil) || self.seedDemo || Self.isTrue(environment["EDUGO_SEED_DEMO"])
        let dropDemoTenants = self.dropDemoTenants || Self.isTrue(environment["EDUGO_DROP_DEMO_TENANTS"])
        guard !(seedDemo && dropDemoTenants) else {
            throw ValidationError("--drop-demo-tenants cannot be combined with dev mode or --seed-demo (they seed the demo tenants again); add --no-dev.")
        }

        guard let format = LogFormat(rawValue: (self.logFormat ?? environment["EDUGO_LOG_FORMAT"] ?? "text").lowercased()) else {
            throw ValidationError("--log-format must be text or json.")
        }
        LoggingSystem.bootstrap { label in format.handler(label: label, level: level) }
        let storage: ServerConfiguration.Storage = inMemory ? .inMemory : .directory(dataDirectory)
        let transfer = try DataTransferOptions(
            importFrom: importFrom ?? environment["EDUGO_IMPORT"], exportOnExit: exportOnExit ?? environment["EDUGO_EXPORT_ON_EXIT"],
            inMemory: inMemory)
        try transfer.checkExportDestination()
        try transfer.importIfAsked(into: dataDirectory)
        let tls = try loadTLS(files: files, development: tlsDevelopment, devMode: devMode, dataDirectory: dataDirectory)
        var configuration = ServerConfiguration(
            host: host, port: port, storage: storage, devMode: devMode, seedDemoData: seedDemo, logLevel: level,
            rateLimits: RateLimits.standard.scaled(by: multiplier))
        configuration.tls = tls
        configuration.connections.offersHTTP2 = self.http2 ?? environment["EDUGO_HTTP2"].map(Self.isTrue) ?? true
        configuration.dropDemoTenants = dropDemoTenants
        configuration.journalBodies = journalBodies || Self.isTrue(environment["EDUGO_JOURNAL_BODIES"])
        configuration.seedFile = seedFile
        try applyHardening(to: &configuration, environment: environment)
        configuration.metricsEnabled = self.metrics ?? environment["EDUGO_METRICS"].map(Self.isTrue)
        configuration.metricsToken = (self.metricsToken ?? environment["EDUGO_METRICS_TOKEN"]).flatMap { $0.isEmpty ? nil : $0 }
        configuration.onServerRunning = { [passwordHashCost = configuration.passwordHashCost] boundPort in
            Self.printBanner(
                host: host, port: boundPort, storage: storage, devMode: devMode, tls: tls, passwordHashCost: passwordHashCost,
                seedDemo: seedDemo, seedFile: seedFile)
        }
        let app = try await buildApplication(configuration)
        try await app.runService()
        try transfer.exportIfAsked(from: dataDirectory)
    }

    private static func parsePort(_ value: String) throws -> Int {
        guard let port = Int(value) else { throw ValidationError("EDUGO_PORT must be a number.") }
        return port
    }

    private static func parseMultiplier(_ value: String) throws -> Int {
        guard let multiplier = Int(value) else { throw ValidationError("EDUGO_RATE_LIMIT_MULTIPLIER must be a number.") }
        return multiplier
    }

    static func isTrue(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }
}
