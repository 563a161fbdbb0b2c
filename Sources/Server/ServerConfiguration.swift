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
    /// `iss` claim of access tokens.
    public var issuer: String
    /// `aud` claim of access tokens.
    public var audience: String
    /// Lifetime of an access token.
    public var accessTokenLifetime: Duration
    /// Lifetime of a refresh token (each rotation starts a new one).
    public var refreshTokenLifetime: Duration
    /// A rotated refresh token presented again within this window returns a fresh pair
    /// (a lost response) instead of revoking the session family.
    public var refreshReuseGraceWindow: Duration
    /// Lifetime of an email verification token.
    public var verificationTokenLifetime: Duration
    /// Lifetime of a password reset token.
    public var resetTokenLifetime: Duration
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
    /// The least time between two events of one live stream (`GET /v1/sync/events`): changes
    /// committed meanwhile gather into the next event.
    public var eventCoalescing: Duration = .milliseconds(50)
    /// How often an idle live stream gets a keep-alive comment, so that proxies keep it open.
    public var eventHeartbeat: Duration = .seconds(15)
    /// The most live streams the server holds at once.
    public var maxEventStreams = 10_000
    /// The most live streams one user holds at once; one more answers 429.
    public var maxEventStreamsPerUser = 5
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
    /// The longest a session lives after its sign-in, however often it is refreshed (90 days by
    /// default); then the user signs in again.
    public var maxSessionAge: Duration = .seconds(90 * 24 * 3600)
    /// The most live sessions one user holds; a sign-in beyond it ends that user's oldest session
    /// (revoke reason `session_limit`).
    public var maxSessionsPerUser = 50
    /// The least time between two prunings of a tenant's session and email-token tables, on the
    /// server's clock. A pruning runs inside a write that starts a session, rotates a refresh
    /// token or stores an email token, once this long has passed since the last one.
    public var sessionPruneInterval: Duration = .seconds(600)
    /// Reverse proxies (CIDR blocks, e.g. `10.0.0.0/8`, `::1/128`) whose `X-Forwarded-For` names
    /// the client; from any other peer the header is ignored.
    public var trustedProxies: [String] = []
    /// A connection with no request in progress (including one whose request head never
    /// completes), or whose answer makes no progress while it has something to write (a client
    /// that stops reading), is closed after this long; `nil` never closes one.
    public var idleTimeout: Duration? = .seconds(30)
    /// The most connections served at once; further ones wait in the listen backlog.
    public var maxConnections = 512
    /// With TLS and HTTP/2: a connection older than this is sent GOAWAY, and closed
    /// ``http2GracefulCloseTimeout`` later whatever the client does; `nil` lets it live as long as
    /// it is used. One hour by default.
    public var maxConnectionAge: Duration? = .seconds(3600)

    /// How long an HTTP/2 connection that was sent GOAWAY may finish its streams before it is
    /// closed: the idle timeout, or 30 seconds without one.
    public var http2GracefulCloseTimeout: Duration { idleTimeout ?? .seconds(30) }
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
    /// With ``tls``: offer HTTP/2 by ALPN (HTTP/1.1 is served alongside); off serves HTTP/1.1 only.
    public var offersHTTP2 = true

    /// Creates a configuration; every parameter has a development default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        storage: Storage = .directory(URL(fileURLWithPath: ".edugo")),
        devMode: Bool = true,
        seedDemoData: Bool = true,
        logLevel: Logger.Level = .info,
        issuer: String = "edugo-server",
        audience: String = "edugo-app",
        accessTokenLifetime: Duration = .seconds(900),
        refreshTokenLifetime: Duration = .seconds(30 * 24 * 3600),
        refreshReuseGraceWindow: Duration = .seconds(10),
        verificationTokenLifetime: Duration = .seconds(24 * 3600),
        resetTokenLifetime: Duration = .seconds(30 * 60),
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
        self.issuer = issuer
        self.audience = audience
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshReuseGraceWindow = refreshReuseGraceWindow
        self.verificationTokenLifetime = verificationTokenLifetime
        self.resetTokenLifetime = resetTokenLifetime
        self.passwordHashCost = passwordHashCost
        self.rateLimits = rateLimits
        self.maxBodySize = maxBodySize
        self.strictTransportSecurity = strictTransportSecurity
        self.idempotencyRetention = idempotencyRetention
        self.now = now
        self.onServerRunning = onServerRunning
    }
}
