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
    public var retryPolicy: RetryPolicy
    /// How long and how often a refresh for a read may try (short: reads answer from the store).
    public var readRefresh: ReadRefreshPolicy
    public var logLevel: LoggingInterceptor.Level
    /// Refresh the access token when it expires within this interval.
    public var refreshLeeway: Duration
    public var refreshWindow: RefreshWindow
    /// Public-key pins and custom trust roots; `.disabled` is ordinary TLS. When enabled, the
    /// default transport is one that can check them (``makeDefaultTransport()``).
    public var pinning: CertificatePinning

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
