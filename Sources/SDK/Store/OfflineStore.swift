import EduGoGuarded
import Foundation
import GRDB

/// The SDK's local database for one tenant and one user: cached entities, the HTTP cache, the
/// outbox, dead letters, conflicts and settings.
///
/// Each signed-in user gets their own file (`<directory>/<tenant>/<user>.sqlite`), so a second
/// user on the same device cannot read the first one's data, and signing out deletes the file.
public final class OfflineStore: Sendable {
    /// The database connection (a WAL pool on disk, a queue in memory). An implementation
    /// detail: only the SDK's own code and its benchmarks (`@_spi(EduGoInternals) import`) see it.
    @_spi(EduGoInternals) public let writer: any DatabaseWriter
    /// Where the store's SQLite file is on disk (its `-wal` and `-shm` files sit beside it);
    /// `nil` for a store made with ``inMemory(tenantID:userID:)``.
    public let fileURL: URL?
    /// The tenant (the school or organisation) whose data the store holds.
    public let tenantID: String
    /// The user whose data the store holds; every user on a device has their own store.
    public let userID: String
    /// Shares one transaction among the drain's claims and settlements that arrive together.
    let groupCommit: GroupCommit
    /// Whether sign-out closed the database (set before it closes, so a failure that follows is
    /// known for what it is).
    private let closed = Guarded(false)

    private init(writer: any DatabaseWriter, fileURL: URL?, tenantID: String, userID: String) throws {
        self.writer = writer
        self.groupCommit = GroupCommit(writer: writer)
        self.fileURL = fileURL
        self.tenantID = tenantID
        self.userID = userID
        try OfflineStoreMigrations.migrator.migrate(writer)
    }

    /// Opens (creating and migrating) the store of `userID` in `tenantID` under `directory`.
    ///
    /// ``EduGoClient`` opens the signed-in user's store itself; call this only to use a store
    /// without a client (tools, benchmarks).
    ///
    /// - Parameters:
    ///   - directory: the folder that holds every user's store (the client's `dataDirectory`).
    ///   - tenantID: the tenant; the stores of its users share one subfolder.
    ///   - userID: the user; their store is the file `<user>.sqlite` in the tenant's folder.
    /// - Throws: a file-system error when the folder cannot be created, or a database error when the
    ///   file cannot be opened or migrated.
    public static func open(directory: URL, tenantID: String, userID: String) throws -> OfflineStore {
        let folder = directory.appendingPathComponent(Self.safe(tenantID), isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        ProtectedDirectory.protect(folder)  // before SQLite makes the file and its -wal and -shm
        let url = folder.appendingPathComponent("\(Self.safe(userID)).sqlite")
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        let store = try OfflineStore(writer: pool, fileURL: url, tenantID: tenantID, userID: userID)
        // A sealed store is a sign-out that did not get to destroy it: finish that, start afresh.
        guard try store.isSealed() else { return store }
        try store.destroy()
        let fresh = try DatabasePool(path: url.path, configuration: configuration)
        return try OfflineStore(writer: fresh, fileURL: url, tenantID: tenantID, userID: userID)
    }

    /// A store that lives in memory only and vanishes with the value (tests, previews).
    ///
    /// - Throws: a database error when the schema cannot be created.
    public static func inMemory(tenantID: String, userID: String) throws -> OfflineStore {
        try OfflineStore(writer: DatabaseQueue(), fileURL: nil, tenantID: tenantID, userID: userID)
    }

    /// Closes the database and deletes its files (sign-out).
    func destroy() throws {
        closed.withLock { $0 = true }
        try (writer as? DatabasePool)?.close()
        try (writer as? DatabaseQueue)?.close()
        guard let fileURL else { return }
        for suffix in ["", "-wal", "-shm"] {
            let url = URL(fileURLWithPath: fileURL.path + suffix)
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        }
    }

    /// `body`'s value, where a failure because the user signed out (the store sealed, or closed and
    /// deleted) is ``OfflineSessionError/signedOut``: the error an app can act on, in place of the
    /// database's own. The failure is classified after it happened, so a sign-out that lands
    /// between a check and the work cannot slip through.
    func ofSignedInUser<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch where Self.isSealedRefusal(error) || closed.withLock({ $0 }) {
            throw OfflineSessionError.signedOut
        }
    }

    /// A tenant or user id as one path segment: letters, digits and `-` kept, anything else `_`
    /// (the user stores and the downloads directories name their folders with it).
    static func safe(_ value: String) -> String {
        value.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" ? String($0) : "_" }.joined()
    }
}
