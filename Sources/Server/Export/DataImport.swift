import EduGoServerStore
import Foundation
import JWTKit

/// Replaces a data directory's state with an export's, all or nothing.
///
/// Every file is copied into a hidden folder next to the data directory and checked there —
/// listed in `manifest.json` with a matching SHA-256 and size, a known kind of file, each database
/// passing `PRAGMA integrity_check`, the registry listing the manifest's tenants — before the
/// folder is swapped in with one atomic rename. A file that fails any check is named in the
/// error, and the data directory is as it was. The data directory's TLS development certificate
/// (`tls/`) is kept; its snapshots, which belong to the data being replaced, are not. Each
/// imported tenant starts a new timeline (``ChangeTimeline``) when the server first opens it, so
/// a device that synced this server before answers its next pull with a base sync.
///
/// Run it while no server uses the data directory (`edugo-server --import` does it before it opens
/// anything).
public enum DataImport {
    /// What an import installed.
    public struct Summary: Sendable, Equatable {
        /// The imported tenants' ids, sorted.
        public var tenants: [String]
        /// Whether the data directory held data that was replaced.
        public var replacedData: Bool
    }

    /// Data directory entries the server writes; a data directory with anything else in it is not
    /// replaced.
    static let dataDirectoryEntries: Set<String> = [
        "registry.sqlite", "registry.sqlite-wal", "registry.sqlite-shm", "registry.sqlite-journal",
        "tenants", "keys", "media", "snapshots", "tls",
    ]

    /// Imports the export in `source` into `dataDirectory`.
    ///
    /// - Parameters:
    ///   - source: A folder written by ``DataExport/export(dataDirectory:to:now:)``.
    ///   - dataDirectory: A server's `--data-dir`; created if missing.
    ///   - replace: Whether data already in `dataDirectory` may be replaced; without it such a
    ///     directory is refused.
    /// - Throws: ``DataTransferError`` naming the first file that fails a check; nothing changed.
    @discardableResult
    public static func importData(from source: URL, into dataDirectory: URL, replace: Bool) throws -> Summary {
        let fileManager = FileManager.default
        let source = source.standardizedFileURL
        let target = dataDirectory.standardizedFileURL
        let manifest = try ExportFolder.readManifest(in: source)
        let entries = try ExportFolder.checkListing(of: source, against: manifest)
        let holdsData = try checkTarget(target, replace: replace)

        let parent = target.deletingLastPathComponent()
        try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(
            ".\(target.lastPathComponent).import-\(UUID().uuidString.lowercased())", isDirectory: true)
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            try stage(manifest, entries: entries, from: source, into: staging)
            let tls = target.appendingPathComponent("tls", isDirectory: true)
            if fileManager.fileExists(atPath: tls.path) {
                try fileManager.copyItem(at: tls, to: staging.appendingPathComponent("tls", isDirectory: true))
            }
            if let replaced = try DirectorySwap.install(staging, at: target) {
                try? fileManager.removeItem(at: replaced)
            }
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error
        }
        return Summary(tenants: manifest.tenants, replacedData: holdsData)
    }

    /// Whether `target` holds data, refusing it when it does and `replace` is off, or when it holds
    /// anything the server does not write.
    private static func checkTarget(_ target: URL, replace: Bool) throws -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) else { return false }
        guard isDirectory.boolValue else {
            throw DataTransferError.targetHoldsForeignEntry(directory: target.path, entry: "a file in its place")
        }
        let contents = try FileManager.default.contentsOfDirectory(atPath: target.path)
        if let foreign = contents.sorted().first(where: { !dataDirectoryEntries.contains($0) }) {
            throw DataTransferError.targetHoldsForeignEntry(directory: target.path, entry: foreign)
        }
        let holdsData = contents.contains { $0 != "tls" }
        if holdsData, !replace { throw DataTransferError.targetHoldsData(directory: target.path) }
        return holdsData
    }

    /// Copies every listed file into `staging` and checks the copies: what is checked is what is installed.
    private static func stage(_ manifest: ExportManifest, entries: [ExportEntry], from source: URL, into staging: URL) throws {
        for (file, entry) in zip(manifest.files, entries) {
            let input = source.appendingPathComponent(file.path)
            let output = staging.appendingPathComponent(file.path)
            guard FileManager.default.fileExists(atPath: input.path) else { throw DataTransferError.missingFile(path: file.path) }
            try FileManager.default.createDirectory(
                at: output.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let digest = try FileDigest.copy(input, to: output)
            guard digest.bytes == file.bytes else {
                throw DataTransferError.corruptFile(
                    path: file.path, reason: "it holds \(digest.bytes) bytes, manifest.json says \(file.bytes)")
            }
            guard digest.sha256 == file.sha256.lowercased() else {
                throw DataTransferError.corruptFile(path: file.path, reason: "its SHA-256 does not match manifest.json")
            }
            try check(entry, at: output)
            if case .tenant = entry {
                // The imported data is a new history for every device that synced this server.
                do {
                    try DatabaseFile.forgetTimeline(at: output)
                } catch {
                    throw DataTransferError.corruptFile(path: file.path, reason: "its change log cannot be written")
                }
            }
        }
        let registry: [String]
        do {
            registry = try DatabaseFile.registryTenantIDs(at: staging.appendingPathComponent(ExportEntry.registryPath))
        } catch {
            throw DataTransferError.corruptFile(path: ExportEntry.registryPath, reason: "it holds no tenant registry")
        }
        guard registry == manifest.tenants.sorted() else {
            throw DataTransferError.tenantsMismatch(manifest: manifest.tenants.sorted(), registry: registry)
        }
    }

    /// The content check of one staged file: databases by `PRAGMA integrity_check`, the signing key by parsing it.
    private static func check(_ entry: ExportEntry, at url: URL) throws {
        if entry.isDatabase {
            switch DatabaseFile.defect(at: url) {
            case nil: return
            case .notSQLite: throw DataTransferError.corruptFile(path: entry.path, reason: "it is not a SQLite database")
            case .damaged(let report):
                throw DataTransferError.corruptFile(path: entry.path, reason: "PRAGMA integrity_check reports \(report)")
            }
        }
        if entry == .signingKey {
            let pem = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            guard (try? ES256PrivateKey(pem: pem)) != nil else {
                throw DataTransferError.corruptFile(path: entry.path, reason: "it is not a PEM ES256 private key")
            }
        }
    }
}
