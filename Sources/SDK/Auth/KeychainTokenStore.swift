#if canImport(Security)
import Foundation
import Security

/// Tokens in the Keychain (generic passwords, this device only, available after first unlock).
public struct KeychainTokenStore: TokenStore {
    /// The Keychain service the items are filed under. Each ``TokenStoreKey`` is one item in it,
    /// named `tenant/account`.
    public let service: String

    /// Creates a store that files its items under `service`.
    ///
    /// - Parameter service: Change it only to keep sessions apart, for example those of a test run;
    ///   the default suits an app.
    public init(service: String = "dev.edugo.sdk.session") {
        self.service = service
    }

    private func query(_ key: TokenStoreKey) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "\(key.tenantID)/\(key.account)",
        ]
    }

    /// The tokens saved for `key`, or `nil` when the Keychain has none.
    ///
    /// - Throws: An `NSError` in `NSOSStatusErrorDomain` when the Keychain refuses the read (for
    ///   example before the first unlock after a restart), or a decoding error.
    public func load(_ key: TokenStoreKey) async throws -> SessionTokens? {
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
        }
        return try JSONDecoder().decode(SessionTokens.self, from: data)
    }

    /// Saves `tokens` for `key`, replacing the earlier item.
    ///
    /// The item stays on this device (it is neither synced nor restored to another one) and can be
    /// read after the first unlock following a restart, so background work can use the session.
    ///
    /// - Throws: An `NSError` in `NSOSStatusErrorDomain` when the Keychain refuses the write.
    public func save(_ tokens: SessionTokens, for key: TokenStoreKey) async throws {
        let data = try JSONEncoder().encode(tokens)
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query(key).merging(attributes) { $1 } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }

    /// Deletes the item for `key`; nothing happens when there is none.
    ///
    /// - Throws: An `NSError` in `NSOSStatusErrorDomain` when the Keychain refuses the deletion.
    public func remove(_ key: TokenStoreKey) async throws {
        let status = SecItemDelete(query(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
        }
    }
}
#endif
