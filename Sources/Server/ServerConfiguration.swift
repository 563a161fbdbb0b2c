import EduGoServerStore
import Foundation
import Logging

/// Everything `buildApplication(_:)` needs to know to serve EduGo.
///
/// The defaults describe a local development server: loopback only, dev mode on, data under
/// `./.edugo`. Tests override the clock, the token lifetimes and the rate limits.
public struct ServerConfiguration: Sendable {
    /// Where the server keeps its databases and signing keys.
    public enum Storage: Sendable, Equatable {
        /// Files under the given directory survive restarts.
        case directory(URL)
        /// Nothing touches the disk; everything is gone when the process ends.
        case inMemory
    }

    /// Interface to bind, `127.0.0.1` by default.
    public var host: String
    /// Port to bind; `0` asks the system for a free one.
    public var port: Int
    /// Persistent or in-memory storage.
    public var storage: Storage
    /// Enables the `/__dev` endpoints (mailbox, tenant factory) and the demo-login banner.
    public var devMode: Bool
    /// Seeds the `demo` and `acme` tenants from the built-in demo seed file (`Resources/Seeds/demo.json`),
    /// adding what they lack. Their passwords are published, so the server refuses to start on a
    /// non-loopback host with this on.
    public var seedDemoData: Bool
    /// A declarative seed file (JSON: tenants, users, courses, lessons, enrollments, progress) to
    /// apply at start, after the demo data: the tenants it names are created if missing and given
    /// what they lack, so applying it again changes nothing. It is validated whole first; an
    /// invalid file stops the start with ``StartupError/invalidSeedFile(path:problems:)`` and
    /// nothing of it written. Its passwords count as published (loopback hosts only).
    public var seedFile: URL? = nil
    /// Log level for the server's logger.
    public var logLevel: Logger.Level
    /// The claims and lifetimes of the tokens the server issues.
    public var tokens: TokenOptions
    /// bcrypt cost factor (log2 of its rounds), 12 by default and within ``passwordHashCosts``.
    /// Below ``minimumPasswordHashCostOutsideDevMode`` only in dev mode: fast test accounts,
    /// whose passwords are still really hashed; outside dev mode the server refuses to start.
    public var passwordHashCost: UInt8
    /// The costs bcrypt accepts.
    public static let passwordHashCosts: ClosedRange<UInt8> = 4...31
    /// The lowest bcrypt cost a server outside dev mode starts with (each step doubles the work:
    /// a sign-in took a median 284 ms at 12 and 2.2 ms at 4 on a two-core machine).
    public static let minimumPasswordHashCostOutsideDevMode: UInt8 = 10
    /// Abuse limits for login, refresh and forgot-password.
    public var rateLimits: RateLimits
    /// Largest accepted request body in bytes; larger bodies answer 413.
    public var maxBodySize: Int
    /// Value of `Strict-Transport-Security`, sent only over TLS (see `trustForwardedProto`); `nil` omits it.
    public var strictTransportSecurity: String?
    /// How long idempotency records are kept.
    public var idempotencyRetention: Duration
    /// How long the change feed keeps a change (and a deletion's tombstone); a cursor older than
    /// that answers `410 cursor_expired`. Measured on the server's clock.
    public var changeRetention: Duration = .seconds(30 * 24 * 3600)
    /// The live streams' pace and how many the server holds.
    public var events = EventStreamOptions()
    /// The most encoded list pages each tenant keeps in memory while its data does not change
    /// (any commit that changes the tenant empties them). 0 keeps none: every list is read from
    /// SQLite, which is what the load benchmark measures beside the cached path.
    public var pageCacheCapacity = PageCache.defaultCapacity
    /// The wall clock. Tests inject a controllable one.
    public var now: @Sendable () -> Date
    /// Called once the server listens, with the bound port.
    public var onServerRunning: (@Sendable (Int) async -> Void)?

    // MARK: Metrics
    /// Serves `GET /metrics`; `nil` means on in dev mode and off otherwise.
    public var metricsEnabled: Bool? = nil
    /// When set, `GET /metrics` requires `Authorization: Bearer <token>`. Outside dev mode metrics
    /// are served only with a token (without one `/metrics` answers 404).
    public var metricsToken: String? = nil

    /// Whether `GET /metrics` is installed.
    public var servesMetrics: Bool {
        (metricsEnabled ?? devMode) && (devMode || metricsToken != nil)
    }

    // MARK: - Hardening

    /// Deletes, at start, the `demo` and `acme` tenants and every other tenant in which a published
    /// (seeded) password still signs in, such as the test tenants of `POST /__dev/tenants`.
    public var dropDemoTenants = false
    /// Extra `Host` names a dev-mode server answers to (besides localhost, 127.0.0.1 and [::1]);
    /// any other name answers 421, which stops DNS rebinding.
    public var allowedHosts: [String] = []
    /// Trust `X-Forwarded-Proto` from the proxy in front: `https` there counts as TLS, so a
    /// server behind a TLS-terminating proxy sends `Strict-Transport-Security` too.
    public var trustForwardedProto = false
    /// How long sessions live, how many one user holds, and how often ended ones are pruned.
    public var sessions = SessionOptions()
    /// Reverse proxies (CIDR blocks, e.g. `10.0.0.0/8`, `::1/128`) whose `X-Forwarded-For` names
    /// the client; from any other peer the header is ignored.
    public var trustedProxies: [String] = []
    /// How many connections the server serves, how long an idle or old one lives, and whether
    /// HTTPS offers HTTP/2.
    public var connections = ConnectionOptions()
    /// The most bcrypt hashes running at once, server-wide; `nil` is one per processor (at least two).
    public var maxConcurrentPasswordHashes: Int? = nil
    /// The most requests waiting for a bcrypt slot; further ones answer `503 hashing_busy` with
    /// `Retry-After`. `nil` is 32 per slot.
    public var maxWaitingPasswordHashes: Int? = nil
    /// The most tenant databases kept open; the least recently used beyond it are closed and
    /// reopened on demand. Lowered at start to what the process's descriptor limit
    /// (`ulimit -n`) allows.
    public var maxOpenTenants = 32

    // MARK: - Tenant snapshots (dev mode)

    /// The most snapshots a tenant keeps (dev mode); one more answers `409 snapshot_limit`. They
    /// live under `<data-dir>/snapshots/<tenant>/` (in memory with in-memory storage).
    public var maxSnapshotsPerTenant = 20

    /// Whether the request journal of each tenant (dev mode) keeps request bodies, with every
    /// password and token replaced; off by default.
    public var journalBodies = false

    // MARK: - Lesson media

    /// The largest lesson media file accepted, in bytes (512 MiB by default); a larger upload
    /// answers 413 as soon as the limit is crossed. Media uploads are not held by ``maxBodySize``.
    public var maxMediaSize = 512 << 20

    // MARK: - TLS

    /// Serve HTTPS with this certificate and key (every connection, TLS 1.2 at least); plain
    /// HTTP when `nil`. `Strict-Transport-Security` is sent only over TLS.
    public var tls: TLSIdentity? = nil

    /// Creates a configuration; every parameter has a development default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        storage: Storage = .directory(URL(fileURLWithPath: ".edugo")),
        devMode: Bool = true,
        seedDemoData: Bool = true,
        logLevel: Logger.Level = .info,
        tokens: TokenOptions = TokenOptions(),
        passwordHashCost: UInt8 = 12,
        rateLimits: RateLimits = .standard,
        maxBodySize: Int = 1 << 20,
        strictTransportSecurity: String? = "max-age=31536000; includeSubDomains",
        idempotencyRetention: Duration = .seconds(24 * 3600),
        now: @escaping @Sendable () -> Date = { Date() },
        onServerRunning: (@Sendable (Int) async -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.storage = storage
        self.devMode = devMode
        self.seedDemoData = seedDemoData
        self.logLevel = logLevel
        self.tokens = tokens
        self.passwordHashCost = passwordHashCost
        self.rateLimits = rateLimits
        self.maxBodySize = maxBodySize
        self.strictTransportSecurity = strictTransportSecurity
        self.idempotencyRetention = idempotencyRetention
        self.now = now
        self.onServerRunning = onServerRunning
    }
}
