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

    /// A file-name-safe form of the key.
    var fileName: String {
        let safe = { (value: String) in
            value.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" ? String($0) : "_" }.joined()
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
