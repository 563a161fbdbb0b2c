import Foundation

/// Where lesson media files live: `<data dir>/media/<tenant>/`, with uploads in progress under
/// `<data dir>/media/.incoming/` until they are complete, synced and renamed into place.
///
/// A file's name is `<lesson id>.<sha256>`: a lesson's new media never overwrites the file a
/// download in progress is reading, and the store removes the old one once the new one is
/// recorded. With in-memory storage the directory is a temporary one, made on the first upload and
/// removed at shutdown.
struct MediaDirectory: Sendable {
    let root: URL
    /// Whether the server made `root` for this run only (in-memory storage) and removes it at shutdown.
    let isTemporary: Bool

    /// The media directory of `storage`, created (mode 0700) if needed.
    init(storage: ServerConfiguration.Storage) throws {
        switch storage {
        case .directory(let url):
            root = url.appendingPathComponent("media", isDirectory: true)
            isTemporary = false
        case .inMemory:
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("edugo-media-\(UUID().uuidString.lowercased())", isDirectory: true)
            isTemporary = true
        }
        guard !isTemporary else { return }  // made on the first upload: most in-memory servers never get one
        // What is left in `.incoming` was being received when the last run ended: never visible, now garbage.
        try? FileManager.default.removeItem(at: root.appendingPathComponent(".incoming", isDirectory: true))
        try FileManager.default.createDirectory(
            at: incoming, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Where uploads are written while they arrive.
    var incoming: URL { root.appendingPathComponent(".incoming", isDirectory: true) }

    /// A fresh path for an upload in progress (creating the staging directory if needed).
    func stagingFile() throws -> URL {
        try FileManager.default.createDirectory(
            at: incoming, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return incoming.appendingPathComponent(UUID().uuidString.lowercased() + ".part")
    }

    /// The directory of `tenant`'s files.
    func directory(of tenant: TenantID) -> URL {
        root.appendingPathComponent(tenant.rawValue, isDirectory: true)
    }

    /// The file of a lesson's media with content `sha256`.
    func file(tenant: TenantID, name: String) -> URL {
        directory(of: tenant).appendingPathComponent(name)
    }

    /// The file name of a lesson's media: `<lesson id>.<sha256>`.
    static func fileName(lessonID: String, sha256: String) -> String {
        "\(lessonID).\(sha256)"
    }

    /// Moves a complete, synced upload into `tenant`'s directory under `name` (atomic `rename(2)`).
    func publish(_ staged: URL, tenant: TenantID, name: String) throws {
        let directory = directory(of: tenant)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let target = file(tenant: tenant, name: name)
        guard rename(staged.path, target.path) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Removes a file if it exists (a replaced or deleted lesson's media, an abandoned upload).
    func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// The names of `tenant`'s files.
    func fileNames(of tenant: TenantID) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory(of: tenant).path)) ?? []
    }

    /// Removes the whole directory when the server made it for this run (in-memory storage).
    func removeIfTemporary() {
        if isTemporary { try? FileManager.default.removeItem(at: root) }
    }
}
