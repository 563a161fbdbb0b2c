/// Why the last drain stopped short of sending everything, as a value: ``SyncStatus/error``.
///
/// Its `description` is the text ``SyncStatus/lastError`` shows.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached; the writes wait for the connection.
    case offline
    /// The session ended (signed out, expired, revoked) or belongs to another user: the writes
    /// wait for their user to sign in again.
    case signedOut
    /// The drain was cancelled (its ``SyncEngine/run()`` ended).
    case cancelled
    /// Another engine or process is draining this store; it sends the writes.
    case busy
    /// The server's certificate matched none of the pins configured for `host`.
    case pinningFailed(host: String)
    /// The certificate of `host` is not trusted.
    case untrustedCertificate(host: String)
    /// The server answered a status that means "later" (408, 429, 5xx).
    case serverStatus(Int)
    /// The server is still applying an earlier attempt with the same `Idempotency-Key`.
    case idempotencyInProgress
    /// The server's progress record needed for a merge could not be fetched.
    case progressUnavailable
    /// The local store could not be read or written.
    case store
    /// Another failure on the way to the server, described.
    case transport(String)

    /// A short English text for logs or a status line (what ``SyncStatus/lastError`` holds); the
    /// case itself is what code should match on.
    public var description: String {
        switch self {
        case .offline: "offline"
        case .signedOut: "signed out"
        case .cancelled: "cancelled"
        case .busy: "busy: another drain holds the store"
        case .pinningFailed(let host): "pinning_failed: \(host)"
        case .untrustedCertificate(let host): "untrusted_certificate: \(host)"
        case .serverStatus(let status): "HTTP \(status)"
        case .idempotencyInProgress: "idempotency_in_progress"
        case .progressUnavailable: "progress unavailable"
        case .store: "store"
        case .transport(let detail): detail
        }
    }
}
