import EduGoServerStore
import Foundation

/// Writes a data directory's state to an export folder: the registry and every tenant database
/// (SQLite online backups), the signing key, the lesson media and a `manifest.json` with each
/// file's SHA-256.
///
/// The export is written to a hidden folder next to the destination and swapped in with one
/// atomic rename, so an export that fails or is killed half-way leaves the previous export whole.
/// Each database copy is one committed state of that database, however many requests write
/// meanwhile (the server may be running on the data directory). Folders are made 0700 and files
/// 0600: an export holds password hashes, session hashes and the signing key.
///
/// ```swift
/// let manifest = try DataExport.export(dataDirectory: dataDir, to: URL(fileURLWithPath: "backup"))
/// print("exported \(manifest.tenants.count) tenants")
/// ```
public enum DataExport {
    /// Exports `dataDirectory` to `destination`, replacing an earlier export there as a whole.
    ///
    /// - Parameters:
    ///   - dataDirectory: A server's `--data-dir`.
    ///   - destination: A missing or empty folder, or an earlier export (see ``checkDestination(_:)``).
    ///   - now: Dates the manifest.
    /// - Returns: The manifest written.
    /// - Throws: ``DataTransferError`` (the destination is as it was), or the file system's error.
    @discardableResult
    public static func export(dataDirectory: URL, to destination: URL, now: Date = Date()) throws -> ExportManifest {
        let fileManager = FileManager.default
        let source = dataDirectory.standardizedFileURL
        let destination = destination.standardizedFileURL
        guard fileManager.fileExists(atPath: source.appendingPathComponent(ExportEntry.registryPath).path) else {
            throw DataTransferError.noData(directory: source.path)
        }
        try checkDestination(destination)
        let parent = destination.deletingLastPathComponent()
        try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        removeLeftovers(of: destination)
        let staging = parent.appendingPathComponent(
            "\(stagingPrefix(of: destination))\(UUID().uuidString.lowercased())", isDirectory: true)
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            let manifest = try write(source, into: staging, now: now)
            if let replaced = try DirectorySwap.install(staging, at: destination) {
                try? fileManager.removeItem(at: replaced)
            }
            return manifest
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error
        }
    }

    /// Writes every file and then the manifest into `staging`.
    private static func write(_ source: URL, into staging: URL, now: Date) throws -> ExportManifest {
        var files: [ExportManifest.File] = []
        func record(_ entry: ExportEntry) throws {
            let file = staging.appendingPathComponent(entry.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            let digest = try FileDigest.of(file)
            files.append(.init(path: entry.path, sha256: digest.sha256, bytes: digest.bytes))
        }

        try DatabaseFile.backup(
            source.appendingPathComponent(ExportEntry.registryPath),
            to: staging.appendingPathComponent(ExportEntry.registryPath))
        try record(.registry)
        // The registry copy decides which tenants are exported: one created after it was taken
        // is not in it, and its database is left out with it.
        let tenants = try DatabaseFile.registryTenantIDs(at: staging.appendingPathComponent(ExportEntry.registryPath))
            .compactMap(TenantID.init)
        try makeFolder(staging.appendingPathComponent("tenants"))
        for tenant in tenants {
            let entry = ExportEntry.tenant(tenant)
            try DatabaseFile.backup(source.appendingPathComponent(entry.path), to: staging.appendingPathComponent(entry.path))
            try record(entry)
        }
        if FileManager.default.fileExists(atPath: source.appendingPathComponent(ExportEntry.signingKeyPath).path) {
            try makeFolder(staging.appendingPathComponent("keys"))
            try copy(.signingKey, from: source, to: staging, into: &files)
        }
        for tenant in tenants {
            let folder = source.appendingPathComponent("media/\(tenant.rawValue)", isDirectory: true)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            let entries = names.filter(ExportEntry.isMediaName).map { ExportEntry.media(tenant, $0) }
            guard !entries.isEmpty else { continue }
            try makeFolder(staging.appendingPathComponent("media/\(tenant.rawValue)"))
            for entry in entries {
                try copy(entry, from: source, to: staging, into: &files)
            }
        }

        let manifest = ExportManifest(
            format: ExportManifest.currentFormat, serverVersion: ServerVersion.current, createdAt: now,
            tenants: tenants.map(\.rawValue).sorted(), files: files.sorted { $0.path < $1.path })
        let data = try ExportManifest.encoder.encode(manifest)
        let manifestFile = staging.appendingPathComponent(ExportManifest.fileName)
        guard FileManager.default.createFile(atPath: manifestFile.path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw DataTransferError.io(path: manifestFile.path, reason: "cannot be written")
        }
        return manifest
    }

    /// Copies a plain file (the signing key, a media file); one that vanished since it was listed
    /// (a media file replaced meanwhile) is left out.
    private static func copy(
        _ entry: ExportEntry, from source: URL, to staging: URL, into files: inout [ExportManifest.File]
    ) throws {
        let file = source.appendingPathComponent(entry.path)
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        let digest = try FileDigest.copy(file, to: staging.appendingPathComponent(entry.path))
        files.append(.init(path: entry.path, sha256: digest.sha256, bytes: digest.bytes))
    }

    private static func makeFolder(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Checks that an export may be written to `destination`: an export replaces its destination
    /// as a whole, so it must be missing, an empty folder, or an earlier export — a folder whose
    /// `manifest.json` parses as an EduGo export's (in a format this server reads) and that holds
    /// nothing the manifest does not list. A folder that merely holds a file named
    /// `manifest.json` (a web app, a browser extension) is never replaced.
    ///
    /// `--export-on-exit` calls it at start too, so a destination it would refuse stops the
    /// server before it serves anything rather than when it exits.
    /// - Parameter destination: Where an export is to be written.
    /// - Throws: ``DataTransferError/destinationNotAnExport(directory:)``.
    public static func checkDestination(_ destination: URL) throws {
        let destination = destination.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue,
            let contents = try? FileManager.default.contentsOfDirectory(atPath: destination.path)
        else { throw DataTransferError.destinationNotAnExport(directory: destination.path) }
        guard !contents.isEmpty else { return }
        do {
            let manifest = try ExportFolder.readManifest(in: destination)
            _ = try ExportFolder.checkListing(of: destination, against: manifest)
        } catch {
            throw DataTransferError.destinationNotAnExport(directory: destination.path)
        }
    }

    /// The name prefix of the hidden folders an export of `destination` is written in.
    static func stagingPrefix(of destination: URL) -> String {
        ".\(destination.lastPathComponent).export-"
    }

    /// Removes what an export killed half-way left next to `destination`.
    private static func removeLeftovers(of destination: URL) {
        let parent = destination.deletingLastPathComponent()
        let prefix = stagingPrefix(of: destination)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }
}
