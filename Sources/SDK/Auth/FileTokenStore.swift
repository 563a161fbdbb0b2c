import Foundation

/// Tokens in files readable only by the user (mode 0600, directory 0700), one file per
/// tenant + account, replaced atomically. The store for Linux; Apple platforms should prefer
/// ``KeychainTokenStore``.
public struct FileTokenStore: TokenStore {
    /// The folder holding the token files. It is created with mode 0700 on the first save, and an
    /// existing folder is tightened to 0700.
    public let directory: URL

    /// Creates a store that keeps its files in `directory`; nothing is written before the first
    /// ``save(_:for:)``.
    ///
    /// - Parameter directory: A folder private to the app, such as one under Application Support.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The tokens saved for `key`, or `nil` when none are saved.
    ///
    /// - Throws: When the file exists but cannot be read or decoded.
    public func load(_ key: TokenStoreKey) async throws -> SessionTokens? {
        let url = directory.appendingPathComponent(key.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode(SessionTokens.self, from: data)
    }

    /// Saves `tokens` for `key`, replacing the earlier file atomically: a reader sees the old tokens
    /// or the new ones, never a mix. The file is flushed to disk before it replaces the old one.
    ///
    /// - Throws: When the folder or the file cannot be created or written.
    public func save(_ tokens: SessionTokens, for key: TokenStoreKey) async throws {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        ProtectedDirectory.protect(directory)
        let data = try JSONEncoder().encode(tokens)
        let target = directory.appendingPathComponent(key.fileName)
        let temporary = directory.appendingPathComponent(".\(key.fileName).\(UUID().uuidString).tmp")
        // An existing directory is tightened too; the file is created 0600 from its first byte.
        _ = chmod(directory.path, 0o700)
        try Self.writeOwnerOnly(data, to: temporary.path)
        // rename(2) replaces the old file atomically: a reader sees the old or the new tokens.
        guard rename(temporary.path, target.path) == 0 else {
            try? manager.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Deletes the tokens saved for `key`; nothing happens when there are none.
    ///
    /// - Throws: When the file exists but cannot be deleted.
    public func remove(_ key: TokenStoreKey) async throws {
        let url = directory.appendingPathComponent(key.fileName)
        if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }

    private static func writeOwnerOnly(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        defer { close(descriptor) }
        // Invariant: write reads at most buffer.count bytes from the buffer's base, inside the closure.
        let written = data.withUnsafeBytes { buffer in
            buffer.baseAddress.map { write(descriptor, $0, buffer.count) } ?? 0
        }
        guard written == data.count, fsync(descriptor) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
