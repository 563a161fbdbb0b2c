import Foundation

/// Identifies whose tokens are stored: one tenant, one account on the device.
public struct TokenStoreKey: Sendable, Hashable {
    public var tenantID: String
    /// An app-chosen account label (`default` for single-account apps).
    public var account: String

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
    func load(_ key: TokenStoreKey) async throws -> SessionTokens?
    func save(_ tokens: SessionTokens, for key: TokenStoreKey) async throws
    func remove(_ key: TokenStoreKey) async throws
}

/// Tokens kept in memory only (tests, or apps that never persist a session).
public actor InMemoryTokenStore: TokenStore {
    private var sessions: [TokenStoreKey: SessionTokens] = [:]

    public init() {}

    public func load(_ key: TokenStoreKey) -> SessionTokens? { sessions[key] }
    public func save(_ tokens: SessionTokens, for key: TokenStoreKey) { sessions[key] = tokens }
    public func remove(_ key: TokenStoreKey) { sessions[key] = nil }
}
