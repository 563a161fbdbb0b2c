import Foundation

/// How an ``APIClient`` reaches the server and behaves.
public struct APIConfiguration: Sendable {
    /// The server's root, e.g. `https://api.edugo.dev` or `http://127.0.0.1:8080`.
    public var baseURL: URL
    /// The tenant sent as `X-Tenant-ID`.
    public var tenantID: String
    /// The account label under which tokens are stored (multi-account apps set one per account).
    public var account: String
    /// Timeout of each attempt.
    public var timeout: Duration
    /// How calls made through ``APIClient`` retry. Reads refreshed for the offline store use
    /// ``readRefresh`` instead, and the outbox has a schedule of its own.
    public var retryPolicy: RetryPolicy
    /// How long and how often a refresh for a read may try (short: reads answer from the store).
    public var readRefresh: ReadRefreshPolicy
    /// How much of each request the ``LoggingInterceptor`` logs. Secrets are redacted at every level.
    public var logLevel: LoggingInterceptor.Level
    /// Refresh the access token when it expires within this interval.
    public var refreshLeeway: Duration
    /// How many token refreshes may start in a short time, so a server that keeps refusing fresh
    /// tokens cannot drive the client into a refresh loop.
    public var refreshWindow: RefreshWindow
    /// Public-key pins and custom trust roots; `.disabled` is ordinary TLS. When enabled, the
    /// default transport is one that can check them (``makeDefaultTransport()``).
    public var pinning: CertificatePinning
    /// Whether a running ``OfflineSession/run()`` holds the live change stream
    /// (`GET /v1/sync/events`) and pulls on every event, so that what others change reaches the
    /// device within a second. On by default.
    public var liveUpdates = true
    /// How often a running session pulls while the live stream cannot be held (a transport that
    /// cannot stream, a server that refuses the stream, a connection that keeps dropping).
    public var fallbackPullInterval: Duration = .seconds(60)

    /// Creates a configuration. Only the server and the tenant are required; the defaults suit an app:
    /// 30 seconds per attempt, ``RetryPolicy/default``, minimal logging, a token refreshed 2 minutes
    /// before it expires, and no pinning.
    public init(
        baseURL: URL, tenantID: String, account: String = "default", timeout: Duration = .seconds(30),
        retryPolicy: RetryPolicy = .default, readRefresh: ReadRefreshPolicy = ReadRefreshPolicy(),
        logLevel: LoggingInterceptor.Level = .minimal,
        refreshLeeway: Duration = .seconds(120), refreshWindow: RefreshWindow = RefreshWindow(),
        pinning: CertificatePinning = .disabled
    ) {
        self.baseURL = baseURL
        self.tenantID = tenantID
        self.account = account
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.readRefresh = readRefresh
        self.logLevel = logLevel
        self.refreshLeeway = refreshLeeway
        self.refreshWindow = refreshWindow
        self.pinning = pinning
    }

    var tokenKey: TokenStoreKey { TokenStoreKey(tenantID: tenantID, account: account) }
}
