import Foundation

/// Identifies whose tokens are stored: one tenant, one account on the device.
public struct TokenStoreKey: Sendable, Hashable {
    /// The tenant the session belongs to.
    public var tenantID: String
    /// An app-chosen account label (`default` for single-account apps).
    public var account: String

    /// Identifies the session of `account` in the tenant `tenantID`.
    public init(tenantID: String, account: String = "default") {
        self.tenantID = tenantID
        self.account = account
    }

    /// A file-name-safe form of the key, distinct for distinct keys.
    ///
    /// ASCII letters and digits are kept; every other UTF-8 byte (the `-` separator and `_`
    /// included) becomes `_XX`, so `a-b`/`c` and `a`/`b-c` cannot share a file.
    var fileName: String {
        func safe(_ value: String) -> String {
            value.utf8.map { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    String(UnicodeScalar(byte))
                default:
                    "_" + String(format: "%02X", byte)
                }
            }.joined()
        }
        return "session-\(safe(tenantID))-\(safe(account)).json"
    }
}

/// Where session tokens live between launches.
public protocol TokenStore: Sendable {
    /// The tokens saved for `key`, or `nil` when there are none.
    ///
    /// - Throws: When the storage cannot be read; the SDK then treats the user as signed out.
    func load(_ key: TokenStoreKey) async throws -> SessionTokens?
    /// Saves `tokens` for `key`, replacing what was there.
    ///
    /// Called after sign-in and after every refresh. Replace atomically: after a refresh the old
    /// refresh token is spent, so a half-written save would sign the user out at the next launch.
    ///
    /// - Throws: When the tokens cannot be saved. At sign-in the error reaches the caller; after a
    ///   refresh the SDK removes the stored tokens and emits ``SessionEvent/tokenStorageFailed``.
    func save(_ tokens: SessionTokens, for key: TokenStoreKey) async throws
    /// Deletes the tokens for `key` (sign-out, an expired session). Succeeds when there are none.
    ///
    /// - Throws: When the storage cannot be changed.
    func remove(_ key: TokenStoreKey) async throws
}

/// Tokens kept in memory only (tests, or apps that never persist a session).
public actor InMemoryTokenStore: TokenStore {
    private var sessions: [TokenStoreKey: SessionTokens] = [:]

    /// Creates an empty store. Its tokens are lost when it is released.
    public init() {}

    /// The tokens this instance holds for `key`, if any.
    public func load(_ key: TokenStoreKey) -> SessionTokens? { sessions[key] }
    /// Keeps `tokens` for `key` in memory.
    public func save(_ tokens: SessionTokens, for key: TokenStoreKey) { sessions[key] = tokens }
    /// Forgets the tokens for `key`.
    public func remove(_ key: TokenStoreKey) { sessions[key] = nil }
}
